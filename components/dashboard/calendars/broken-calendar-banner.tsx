"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { meQuery } from "@/lib/browser/api-client/account";
import { calendarConnectionsQuery } from "@/lib/browser/api-client/calendars";
import { bannerSentence, isBroken } from "./calendar-words";

// A broken calendar is never silent (decisions §21): on every dashboard page, while a connection
// of the host is in error or needs reconnecting, a banner says which, since when, what it means
// and where to fix it. It reads the connections the layout prefetched (no flash on load), and
// shows nothing while they are all connected or cannot be read (the Calendars page says more).

export const CALENDARS_HREF = "/dashboard/calendars";

export function BrokenCalendarBanner() {
  const connections = useQuery({ ...calendarConnectionsQuery(), refetchInterval: 5 * 60_000 }).data ?? [];
  const zone = useQuery(meQuery()).data?.timezone ?? "UTC";
  const broken = connections.filter(isBroken);
  if (broken.length === 0) return null;
  return (
    <section
      aria-label="Calendar problem"
      role="status"
      className="flex flex-col gap-3 rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-950 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex flex-col gap-1">
        {broken.map((c) => (
          <p key={c.id}>
            <span className="font-semibold">{bannerSentence(c, zone)}</span> Guests may book over its events.
          </p>
        ))}
      </div>
      <Link href={CALENDARS_HREF} className="shrink-0 font-semibold text-red-900 underline underline-offset-2 hover:text-red-700">
        Reconnect
      </Link>
    </section>
  );
}
