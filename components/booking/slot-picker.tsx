"use client";

import { useQuery } from "@tanstack/react-query";
import { DateTime } from "luxon";

export type Slot = { startTime: string; endTime: string; displayStart: string; displayEnd: string };

type Props = {
  username: string;
  slug: string;
  timezone: string;
  /** First date shown, YYYY-MM-DD in `timezone`; the picker shows seven days from it. */
  from: string;
  canGoBack: boolean;
  onWeek: (delta: number) => void;
  onPick: (slot: Slot) => void;
};

async function fetchSlots(username: string, slug: string, from: string, to: string, timezone: string): Promise<Slot[]> {
  const query = new URLSearchParams({ from, to, timezone });
  const res = await fetch(`/api/v1/public/${encodeURIComponent(username)}/${encodeURIComponent(slug)}/slots?${query}`);
  const body = await res.json();
  if (!res.ok) throw new Error(body.message ?? "Could not load the available times");
  return body.slots;
}

/** Seven days of open times in the guest's timezone, a button per slot. */
export function SlotPicker({ username, slug, timezone, from, canGoBack, onWeek, onPick }: Props) {
  const start = DateTime.fromISO(from, { zone: timezone });
  const days = Array.from({ length: 7 }, (_, i) => start.plus({ days: i }));
  const to = days[6]!.toISODate()!;
  const slots = useQuery({ queryKey: ["slots", username, slug, from, to, timezone], queryFn: () => fetchSlots(username, slug, from, to, timezone) });

  const byDate = new Map<string, Slot[]>();
  for (const slot of slots.data ?? []) {
    const date = slot.displayStart.slice(0, 10);
    byDate.set(date, [...(byDate.get(date) ?? []), slot]);
  }

  return (
    <section aria-label="Available times" className="flex flex-col gap-4">
      <div className="flex items-center justify-between gap-2">
        <button type="button" onClick={() => onWeek(-1)} disabled={!canGoBack} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm disabled:opacity-40">
          Previous week
        </button>
        <p className="text-sm text-slate-600">
          {start.toFormat("LLL d")} – {days[6]!.toFormat("LLL d, yyyy")}
        </p>
        <button type="button" onClick={() => onWeek(1)} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm">
          Next week
        </button>
      </div>
      {slots.isPending && <p className="text-slate-500">Loading available times…</p>}
      {slots.isError && (
        <p role="alert" className="text-red-700">
          {slots.error.message}
        </p>
      )}
      {slots.isSuccess && slots.data.length === 0 && <p className="text-slate-600">No open times this week. Try the next one.</p>}
      {slots.isSuccess && slots.data.length > 0 && (
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {days.map((day) => {
            const date = day.toISODate()!;
            const daySlots = byDate.get(date) ?? [];
            if (daySlots.length === 0) return null;
            const label = day.toFormat("cccc, LLLL d");
            return (
              <div key={date} role="group" aria-label={label} className="flex flex-col gap-2">
                <h3 className="text-sm font-medium text-slate-700">{label}</h3>
                {daySlots.map((slot) => (
                  <button
                    key={slot.startTime}
                    type="button"
                    onClick={() => onPick(slot)}
                    className="rounded-md border border-blue-600 px-3 py-2 text-blue-700 hover:bg-blue-600 hover:text-white"
                  >
                    {slot.displayStart.slice(11, 16)}
                  </button>
                ))}
              </div>
            );
          })}
        </div>
      )}
    </section>
  );
}
