"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { buttonClass } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { CalendarFeed } from "./calendar-feed";
import { GettingStarted } from "./getting-started";
import { RequestsWaitingCard, useRequestsWaiting } from "./requests-waiting";
import { InvitationsBanner } from "./teams/invitations-banner";
import { NextTimeOff } from "./time-off/next-time-off";
import { bookingsQuery } from "@/lib/browser/api-client/bookings";
import { eventTypesQuery } from "@/lib/browser/api-client/event-types";
import { meQuery } from "@/lib/browser/api-client/account";
import { UPCOMING } from "@/lib/dashboard/home-queries";
import { bookingWhen } from "@/lib/dashboard/when";

/** The host's home: the next bookings at a glance, and the link to share. */
export function DashboardHome({ publicUrl, userId, hostZone, today }: { publicUrl: string; userId: string; hostZone: string; today: string }) {
  const me = useQuery(meQuery());
  const upcoming = useQuery(bookingsQuery(UPCOMING));
  const eventTypes = useQuery(eventTypesQuery({ kind: "me" }));
  const waiting = useRequestsWaiting();
  const zone = me.data?.timezone;
  const active = eventTypes.data?.filter((e) => e.isActive).length;

  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">{me.data ? `Hello, ${me.data.fullName}` : "Your dashboard"}</h1>
      <RequestsWaitingCard />
      <InvitationsBanner />
      <NextTimeOff today={today} />
      <GettingStarted userId={userId} publicUrl={publicUrl} />
      <section aria-labelledby="link-heading" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-5">
        <h2 id="link-heading" className="text-lg font-semibold">
          Your booking page
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <a href={publicUrl} target="_blank" rel="noreferrer" className="break-all text-blue-700 underline">
            {publicUrl}
          </a>
          <CopyButton text={publicUrl} />
        </div>
        {active !== undefined && (
          <p className="text-sm text-slate-600">
            {active === 0 ? (
              <>
                Guests see nothing to book yet.{" "}
                <Link href="/dashboard/event-types/new" className="text-blue-700 underline">
                  Create an event type
                </Link>
                .
              </>
            ) : (
              `${active} event type${active === 1 ? "" : "s"} open for booking.`
            )}
          </p>
        )}
      </section>
      <section aria-labelledby="upcoming-heading" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="upcoming-heading" className="text-lg font-semibold">
            Next bookings
          </h2>
          <Link href="/dashboard/bookings" className={buttonClass("secondary", "sm")}>
            All bookings
          </Link>
        </div>
        {upcoming.isPending || me.isPending ? (
          <p className="text-slate-500">Loading your next bookings…</p>
        ) : upcoming.isError ? (
          <Alert tone="error">{upcoming.error.message}</Alert>
        ) : upcoming.data.data.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">
            {waiting ? "No confirmed bookings yet: the requests above wait for your answer." : "Nothing booked yet. Share your link and bookings appear here."}
          </p>
        ) : (
          <ul className="flex flex-col gap-2">
            {upcoming.data.data.map((b) => (
              <li key={b.id} className="flex flex-col gap-0.5 rounded-lg border border-slate-200 bg-white p-4">
                <span className="font-medium">{bookingWhen(b.startTime, b.endTime, zone ?? hostZone)}</span>
                <span className="text-slate-700">
                  {b.eventType.title} with {b.guestName}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <CalendarFeed />
    </>
  );
}
