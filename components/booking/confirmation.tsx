"use client";

import { useEffect, useRef } from "react";
import type { CreatedBookingDto } from "@/lib/api-client/public";
import { formatClockRange, formatLongDay, zoneLongName } from "@/lib/format";
import { tokenOfGuestUrl } from "@/lib/guest/calendar-links";
import { CalendarButtons } from "./calendar-buttons";

export type BookedEvent = { title: string; hostName: string; location: string; startTime: string; endTime: string; zone: string; hour12: boolean };

export type ConfirmationProps = { booked: CreatedBookingDto; event: BookedEvent; newTab?: boolean };

const link = "underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-green-700";

/**
 * What was booked, with whom, when (in the guest's zone, named, on their clock) and where, with
 * the invitation to download and the links to move or cancel it.
 */
export function Confirmation({ booked, event, newTab = false }: ConfirmationProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The form that had the focus is gone: the focus goes to what replaced it.
  useEffect(() => heading.current?.focus(), []);
  // Inside another site's frame the guest's pages open in a tab of their own (they refuse framing).
  const away = newTab ? { target: "_blank", rel: "noopener" } : {};
  return (
    <section className="flex flex-col gap-4 rounded-lg border border-green-200 bg-green-50 p-5 text-green-950">
      <h2 ref={heading} tabIndex={-1} className="text-xl font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-green-700">
        You are booked
      </h2>
      <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-2">
        <dt className="text-green-800">What</dt>
        <dd className="font-medium break-words">{event.title}</dd>
        <dt className="text-green-800">With</dt>
        <dd className="break-words">{event.hostName}</dd>
        <dt className="text-green-800">When</dt>
        <dd>
          {formatLongDay(event.startTime, event.zone, { year: true })},{" "}
          <span className="whitespace-nowrap">{formatClockRange(event.startTime, event.endTime, event.zone, event.hour12)}</span>
          <br />
          <span className="text-sm text-green-900">
            {zoneLongName(event.zone, event.startTime)} ({event.zone})
          </span>
        </dd>
        {event.location && (
          <>
            <dt className="text-green-800">Where</dt>
            <dd className="break-words">{event.location}</dd>
          </>
        )}
      </dl>
      <p className="text-sm">A confirmation email is on its way to {booked.guestEmail}.</p>
      <CalendarButtons
        token={tokenOfGuestUrl(booked.manageUrl)}
        title={`${event.title} with ${event.hostName}`}
        startTime={booked.startTime}
        endTime={booked.endTime}
        location={event.location}
        manageUrl={booked.manageUrl}
      />
      <p className="text-sm">
        <a href={booked.manageUrl} {...away} className={link}>
          Your booking&apos;s page
        </a>{" "}
        shows it at any time. Plans change?{" "}
        <a href={booked.rescheduleUrl} {...away} className={link}>
          Pick another time
        </a>{" "}
        or{" "}
        <a href={booked.cancelUrl} {...away} className={link}>
          cancel this booking
        </a>
        . Keep these links: they are the only way in, and the email has them too.
      </p>
    </section>
  );
}
