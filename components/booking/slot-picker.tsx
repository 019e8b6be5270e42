"use client";

import { useId, useState } from "react";
import { buttonClass } from "@/components/ui/button";
import { toApiError } from "@/lib/api-client/fetch-json";
import { guestReads, slotsKey, slotsPrefix } from "@/lib/api-client/guest-reads";
import { fetchSlots, type SlotDto, type SlotRange } from "@/lib/api-client/public";
import { useRead } from "@/lib/api-client/read-cache";
import { addMonths, firstOfMonth, formatCalendarDate, formatMonth, lastOfMonth, monthOf } from "@/lib/calendar";
import { addDays, dateInZone, formatClock } from "@/lib/format";
import type { GuestPreferences } from "./guest-preferences";
import { slotsFailureMessage } from "./guest-messages";
import { CALENDAR_HEIGHT, MonthCalendar } from "./month-calendar";

type Props = {
  username: string;
  slug: string;
  preferences: GuestPreferences;
  /** How many days ahead the host takes bookings: the calendar goes no further. */
  windowDays: number;
  onPick: (slot: SlotDto) => void;
  /** The start of the time chosen so far, shown pressed (the reschedule page); undefined where a choice moves on at once. */
  chosen?: string | null;
};

// The slots API answers at most 31 days per query: one query per month shown.
const MAX_MONTHS_AHEAD = 13;

/**
 * A month calendar whose days with open times can be chosen, and the chosen day's times beside it
 * (below it on a phone), in the guest's zone and clock. On load the first day with open times is
 * chosen, looking ahead month by month up to the booking window.
 */
export function SlotPicker({ username, slug, preferences, windowDays, onPick, chosen }: Props) {
  const { zone, hour12, weekStart } = preferences;
  const [openedAt] = useState(() => Date.now());
  const today = dateInZone(openedAt, zone);
  // The engine counts the window in the host's zone; a day more covers a guest ahead of it.
  const lastDate = addDays(today, windowDays + 1);
  const rangeOf = (month: string): SlotRange => ({
    from: firstOfMonth(month) < today ? today : firstOfMonth(month),
    to: lastOfMonth(month) > lastDate ? lastDate : lastOfMonth(month),
    timezone: zone,
  });
  // The month the guest went to; null until they do: the first month with open times.
  const [month, setMonth] = useState<string | null>(null);
  const [picked, setPicked] = useState<string | null>(null);

  const readMonth = (m: string) => {
    const range = rangeOf(m);
    return { key: slotsKey(username, slug, range), load: () => fetchSlots(username, slug, range) };
  };

  // Under the slots' prefix, so that a slot taken elsewhere makes the search run again.
  const firstOpenMonth = useRead(guestReads, month === null ? `${slotsPrefix(username, slug)}first-open|${today}|${lastDate}|${zone}` : null, async () => {
    for (let m = monthOf(today), i = 0; m <= monthOf(lastDate) && i < MAX_MONTHS_AHEAD; m = addMonths(m, 1), i++) {
      // Through the cache: the month then shown is not fetched twice.
      const { key, load } = readMonth(m);
      if ((await guestReads.fetch(key, load)).length > 0) return m;
    }
    return null;
  });
  const shownMonth = month ?? firstOpenMonth.data ?? monthOf(today);
  const shown = readMonth(shownMonth);
  const slots = useRead(guestReads, month !== null || firstOpenMonth.isSuccess ? shown.key : null, shown.load);
  const failed = (month === null && firstOpenMonth.isError) || slots.isError;
  const loaded = slots.data !== undefined && (month !== null || firstOpenMonth.isSuccess);

  // Labels come from the UTC instants, formatted in the zone shown: never from display strings.
  const byDate = new Map<string, SlotDto[]>();
  for (const slot of loaded ? slots.data! : []) {
    const date = dateInZone(slot.startTime, zone);
    byDate.set(date, [...(byDate.get(date) ?? []), slot]);
  }
  const day = picked && monthOf(picked) === shownMonth && byDate.has(picked) ? picked : (byDate.keys().next().value ?? null);

  function retry() {
    if (firstOpenMonth.isError) firstOpenMonth.refetch();
    if (slots.isError) slots.refetch();
  }

  return (
    <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_12.5rem]">
      <MonthCalendar
        month={shownMonth}
        weekStart={weekStart}
        today={today}
        lastDate={lastDate}
        counts={loaded ? new Map([...byDate].map(([d, s]) => [d, s.length])) : undefined}
        selected={loaded ? day : null}
        onSelect={setPicked}
        onMonth={(m) => {
          setMonth(m);
          setPicked(null);
        }}
      />
      <div className="flex min-w-0 flex-col md:h-[22.75rem]">
        {failed ? (
          <div role="alert" className="flex flex-col items-start gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
            <p>{slotsFailureMessage(toApiError(slots.error ?? firstOpenMonth.error), zone)}</p>
            <button type="button" onClick={retry} className={buttonClass("secondary", "sm")}>
              Try again
            </button>
          </div>
        ) : !loaded ? (
          <TimesLoading />
        ) : day ? (
          <DayTimes day={day} slots={byDate.get(day)!} zone={zone} hour12={hour12} onPick={onPick} chosen={chosen} />
        ) : (
          <p className="text-sm text-slate-600">
            {month === null
              ? `No open times in the next ${windowDays} days. Please check again later.`
              : `No open times in ${formatMonth(shownMonth)}.${shownMonth < monthOf(lastDate) ? " Try the next month." : ""}`}
          </p>
        )}
      </div>
    </div>
  );
}

function DayTimes({ day, slots, zone, hour12, onPick, chosen }: { day: string; slots: SlotDto[]; zone: string; hour12: boolean; onPick: (slot: SlotDto) => void; chosen?: string | null }) {
  const headingId = useId();
  return (
    // A group named by its day: "Tuesday, March 16" holds that day's time buttons.
    <div role="group" aria-labelledby={headingId} className="flex min-h-0 flex-1 flex-col">
      <h3 id={headingId} className="flex h-10 shrink-0 items-center font-semibold text-slate-900 md:text-sm">
        {formatCalendarDate(day)}
      </h3>
      <ul className="mt-1 grid grid-cols-3 gap-2 p-0.5 sm:grid-cols-4 md:grid-cols-1 md:overflow-y-auto md:pr-1.5">
        {slots.map((slot) => {
          const pressed = chosen === undefined ? undefined : chosen === slot.startTime;
          return (
            <li key={slot.startTime}>
              <button
                type="button"
                data-start={slot.startTime}
                aria-pressed={pressed}
                onClick={() => onPick(slot)}
                className={`w-full rounded-md border px-2 py-2.5 text-sm font-semibold whitespace-nowrap tabular-nums transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 ${
                  pressed ? "border-blue-600 bg-blue-600 text-white" : "border-blue-300 text-blue-700 hover:border-blue-600 hover:bg-blue-50"
                }`}
              >
                {formatClock(slot.startTime, zone, hour12)}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** Where the times will be: the same shape, and words for those who cannot see it. */
function TimesLoading() {
  return (
    <div className="flex flex-col" aria-busy="true">
      <p className="flex h-10 items-center text-sm text-slate-500">
        Loading available times…
      </p>
      <ul aria-hidden="true" className="mt-1 grid grid-cols-3 gap-2 p-0.5 sm:grid-cols-4 md:grid-cols-1">
        {Array.from({ length: 6 }, (_, i) => (
          <li key={i} className="h-[2.625rem] animate-pulse rounded-md bg-slate-100" />
        ))}
      </ul>
    </div>
  );
}

/** What the server renders before the browser has said the guest's zone: the picker's shape, loading. */
export function SlotPickerPlaceholder() {
  return (
    <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_12.5rem]">
      <div aria-hidden="true" className={`rounded-lg bg-slate-50 ${CALENDAR_HEIGHT}`} />
      <div className="md:h-[22.75rem]">
        <TimesLoading />
      </div>
    </div>
  );
}
