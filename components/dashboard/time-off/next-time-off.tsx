"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { outOfOfficeQuery } from "@/lib/browser/api-client/time-off";
import { longDay } from "@/lib/forms/time-off";

/** The home's reminder of the host's next time off (or of the one they are in); nothing when none is planned. */
export function NextTimeOff({ today }: { today: string }) {
  const periods = useQuery(outOfOfficeQuery());
  const next = periods.data?.[0];
  if (!next) return null;
  const away = next.startDate <= today;
  const words = away ? `You're away until ${longDay(next.endDate)}` : next.startDate === next.endDate ? `You're away on ${longDay(next.startDate)}` : `You're away from ${longDay(next.startDate)} to ${longDay(next.endDate)}`;
  return (
    <section aria-label="Time off" className="flex flex-col gap-1 rounded-lg border border-amber-200 bg-amber-50 p-4 text-amber-950 sm:flex-row sm:items-center sm:justify-between">
      <p>
        {words}
        {next.redirectFullName ? `; guests are sent to ${next.redirectFullName}.` : "."}
      </p>
      <Link href="/dashboard/time-off" className="text-blue-800 underline">
        Time off
      </Link>
    </section>
  );
}
