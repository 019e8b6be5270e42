"use client";

import { useEffect, useRef } from "react";
import type { CreatedBookingDto } from "@/lib/browser/api-client/public";
import { formatClockRange, formatLongDay } from "@/lib/time/format";
import { zoneName } from "@/lib/time/zones";
import { tokenOfGuestUrl } from "@/lib/guest/calendar-links";
import { fill, fillParts } from "@/lib/i18n/fill";
import { calendarLabels, CalendarButtons } from "./calendar-buttons";
import { useGuestText } from "./guest-i18n";
import { MeetingPlace } from "./meeting-place";
import { awaitsMeetingLink } from "@/lib/meeting-location";

export type BookedEvent = { title: string; hostName: string; location: string; startTime: string; endTime: string; zone: string; hour12: boolean };

export type ConfirmationProps = { booked: CreatedBookingDto; event: BookedEvent; newTab?: boolean };

const link = "underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-green-700";

/**
 * What was booked, with whom, when (in the guest's zone, named, on their clock) and where, with
 * the invitation to download and the links to move or cancel it.
 */
export function Confirmation({ booked, event: given, newTab = false }: ConfirmationProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const { intl, m } = useGuestText();
  // Whom the booking went to (a team's round robin picks one): the answer says, when it does.
  const event = booked.hostNames?.length ? { ...given, hostName: new Intl.ListFormat(intl, { type: "conjunction" }).format(booked.hostNames) } : given;
  // The form that had the focus is gone: the focus goes to what replaced it.
  useEffect(() => heading.current?.focus(), []);
  // Inside another site's frame the guest's pages open in a tab of their own (they refuse framing).
  const away = newTab ? { target: "_blank", rel: "noopener" } : {};
  // A host who approves bookings first (decisions §16): the guest made a request, not a booking yet.
  const requested = booked.status === "pending";
  // The booking's own place: its meeting link when already known; a link its host's calendar is
  // still making is on its way by email (decisions §17).
  const place = booked.location ?? given.location;
  const video = awaitsMeetingLink(place);
  return (
    <section className="flex flex-col gap-4 rounded-lg border border-green-200 bg-green-50 p-5 text-green-950">
      <h2 ref={heading} tabIndex={-1} className="text-xl font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-green-700">
        {requested ? m.requested : m.booked}
      </h2>
      <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-2">
        <dt className="text-green-800">{m.what}</dt>
        <dd className="font-medium break-words">{event.title}</dd>
        <dt className="text-green-800">{m.with}</dt>
        <dd className="break-words">{event.hostName}</dd>
        <dt className="text-green-800">{booked.series ? m.seriesDates : m.when}</dt>
        <dd>
          {/* A series: every date booked, in order (decisions §19). */}
          {booked.series ? (
            <ol data-testid="booked-series" className="flex flex-col gap-0.5">
              {booked.series.occurrences.map((o) => (
                <li key={o.id}>
                  {formatLongDay(o.startTime, event.zone, { year: true, locale: intl })},{" "}
                  <span className="whitespace-nowrap">{formatClockRange(o.startTime, o.endTime, event.zone, event.hour12, intl)}</span>
                </li>
              ))}
            </ol>
          ) : (
            <>
              {formatLongDay(event.startTime, event.zone, { year: true, locale: intl })},{" "}
              <span className="whitespace-nowrap">{formatClockRange(event.startTime, event.endTime, event.zone, event.hour12, intl)}</span>
              <br />
            </>
          )}
          <span className="text-sm text-green-900">{zoneName(event.zone, new Date(event.startTime), intl)}</span>
        </dd>
        {place && (
          <>
            <dt className="text-green-800">{m.where}</dt>
            <dd className="break-words">
              {video ? (
                <>
                  {m.videoCall}
                  <span className="block text-sm text-green-900">{m.videoLinkComing}</span>
                </>
              ) : (
                <MeetingPlace location={place} />
              )}
            </dd>
          </>
        )}
      </dl>
      <p className="text-sm">{requested ? fill(m.requestedEmail, { host: event.hostName, email: booked.guestEmail }) : fill(m.emailOnItsWay, { email: booked.guestEmail })}</p>
      {/* Nothing to put in a calendar until the host confirms: the confirmation's email brings the invitation. */}
      {!requested && (
        <CalendarButtons
          token={tokenOfGuestUrl(booked.manageUrl)}
          title={fill(m.eventWith, { title: event.title, host: event.hostName })}
          startTime={booked.startTime}
          endTime={booked.endTime}
          location={video ? m.videoCall : place}
          details={fill(m.calendarDetails, { url: booked.manageUrl })}
          labels={calendarLabels(m)}
        />
      )}
      <p className="text-sm">
        {/* The links sit where the translation puts them in its sentence. */}
        {fillParts(m.linksSentence, {
          manage: (
            <a key="manage" href={booked.manageUrl} {...away} className={link}>
              {m.manageLink}
            </a>
          ),
          reschedule: (
            <a key="reschedule" href={booked.rescheduleUrl} {...away} className={link}>
              {m.rescheduleLink}
            </a>
          ),
          cancel: (
            <a key="cancel" href={booked.cancelUrl} {...away} className={link}>
              {m.cancelLink}
            </a>
          ),
        })}
      </p>
    </section>
  );
}
