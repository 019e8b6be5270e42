"use client";

import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { buttonClass } from "@/components/ui/button";
import { toApiError } from "@/lib/browser/api-client/fetch-json";
import { guestReads, slotsKey, slotsPrefix } from "@/lib/browser/api-client/guest-reads";
import { fetchSlots, type SlotDto, type SlotRange } from "@/lib/browser/api-client/public";
import { useRead } from "@/lib/browser/api-client/read-cache";
import { addMonths, firstOfMonth, formatCalendarDate, formatMonth, lastOfMonth, monthOf } from "@/lib/time/month-grid";
import { addDays, dateInZone, formatClock } from "@/lib/time/format";
import { fill, plural } from "@/lib/i18n/fill";
import { useGuestText } from "./guest-i18n";
import type { GuestPreferences } from "./guest-preferences";
import { slotsFailureMessage } from "./guest-messages";
import { CALENDAR_HEIGHT, MonthCalendar } from "./month-calendar";

type Props = {
  username: string;
  slug: string;
  /** The guest's zone and clock; null until the browser has said them (the server's render, hydration). */
  preferences: GuestPreferences | null;
  /** How many days ahead the host takes bookings: the calendar goes no further. */
  windowDays: number;
  onPick: (slot: SlotDto) => void;
  /** The start of the time chosen so far, shown pressed (the reschedule page); undefined where a choice moves on at once. */
  chosen?: string | null;
  /**
   * The first open month as the server found it: its calendar shown from the first paint, the
   * times' place saying they are loading, until the guest's own zone has its answer (or failed).
   */
  preview?: SlotsPreview;
  /** Under the calendar (the booking page's zone line), in the preview as in the live picker. */
  below?: ReactNode;
  /** Called once the guest's own times (or their failure) replace the preview. */
  onReady?: () => void;
  /**
   * The booking being moved (the reschedule page): the picker opens on its month and day, and its
   * time is marked "Your current time" among that day's times (it is not offered: it is taken).
   */
  current?: { startTime: string; endTime: string };
};

/**
 * What the server renders of the picker before the browser has said the guest's zone: the first
 * open month (found in the host's zone) and where the times will be, in words. No time: the
 * server knows no zone but the host's, and a guest must never read (or tap) a time in a zone they
 * did not choose.
 */
export type SlotsPreview = {
  /** The first weekday of the guest's locale (from Accept-Language). */
  weekStart: number;
  /** Today and the booking window's last date in the host's zone. */
  today: string;
  lastDate: string;
  month: string;
  /** Open times per date of that month (days, not times: which days can be chosen). */
  counts: [string, number][];
};

// The slots API answers at most 31 days per query: one query per month shown.
const MAX_MONTHS_AHEAD = 13;

/**
 * A month calendar whose days with open times can be chosen, and the chosen day's times beside it
 * (below it on a phone), in the guest's zone and clock. On load the first day with open times is
 * chosen, looking ahead month by month up to the booking window.
 */
export function SlotPicker(props: Props) {
  if (props.preferences) return <LiveSlotPicker {...props} preferences={props.preferences} />;
  return props.preview ? <SlotsPreviewView preview={props.preview} below={props.below} /> : <SlotPickerPlaceholder below={props.below} />;
}

function LiveSlotPicker({ username, slug, preferences, windowDays, onPick, chosen, preview, onReady, current, below }: Props & { preferences: GuestPreferences }) {
  const { zone, hour12, weekStart } = preferences;
  const text = useGuestText();
  const { locale, intl, m } = text;
  const [openedAt] = useState(() => Date.now());
  const today = dateInZone(openedAt, zone);
  // The engine counts the window in the host's zone; a day more covers a guest ahead of it.
  const lastDate = addDays(today, windowDays + 1);
  const rangeOf = (month: string): SlotRange => ({
    from: firstOfMonth(month) < today ? today : firstOfMonth(month),
    to: lastOfMonth(month) > lastDate ? lastDate : lastOfMonth(month),
    timezone: zone,
  });
  const currentDate = current && dateInZone(current.startTime, zone) >= today ? dateInZone(current.startTime, zone) : null;
  // The month the guest went to (at first the booking's, when moving one); null until they do: the first month with open times.
  const [month, setMonth] = useState<string | null>(currentDate && monthOf(currentDate));
  const [picked, setPicked] = useState<string | null>(currentDate);

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
  // The booking's own day can be chosen even when it has no other open time: it shows the current one.
  if (loaded && currentDate && monthOf(currentDate) === shownMonth && !byDate.has(currentDate)) {
    byDate.set(currentDate, []);
    const sorted = [...byDate].sort(([a], [b]) => (a < b ? -1 : 1));
    byDate.clear();
    for (const [d, s] of sorted) byDate.set(d, s);
  }
  const day = picked && monthOf(picked) === shownMonth && byDate.has(picked) ? picked : (byDate.keys().next().value ?? null);

  // On a phone the times sit below the calendar: a day the guest picks brings its times into
  // view (not the day chosen on load, and not on a wide screen, where they stand beside it).
  const timesRef = useRef<HTMLDivElement>(null);
  const scrollToTimes = useRef(false);
  useEffect(() => {
    if (!scrollToTimes.current) return;
    scrollToTimes.current = false;
    const el = timesRef.current;
    if (!el || window.matchMedia("(min-width: 768px)").matches) return;
    if (el.getBoundingClientRect().top < window.innerHeight * 0.6) return;
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    el.scrollIntoView({ behavior: still ? "auto" : "smooth", block: "start" });
  }, [day]);

  function retry() {
    if (firstOpenMonth.isError) firstOpenMonth.refetch();
    if (slots.isError) slots.refetch();
  }

  // The server's preview stays until the guest's first answer is in; the guest turning the month
  // before that leaves it at once. A layout effect: the page around switches in the same frame.
  const showPreview = preview !== undefined && month === null && !loaded && !failed;
  useLayoutEffect(() => {
    if (!showPreview) onReady?.();
  }, [showPreview, onReady]);
  if (showPreview) return <SlotsPreviewView preview={preview} below={below} onMonth={setMonth} />;

  return (
    <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_12.5rem]">
      <div className="flex min-w-0 flex-col gap-2">
        <MonthCalendar
          month={shownMonth}
          weekStart={weekStart}
          today={today}
          lastDate={lastDate}
          counts={loaded ? new Map([...byDate].map(([d, s]) => [d, s.length])) : undefined}
          selected={loaded ? day : null}
          onSelect={(date) => {
            setPicked(date);
            scrollToTimes.current = true;
          }}
          onMonth={(m) => {
            setMonth(m);
            setPicked(null);
          }}
        />
        {below}
      </div>
      <div ref={timesRef} className="flex min-w-0 flex-col scroll-mt-4 md:h-[22.75rem]">
        {failed ? (
          <div role="alert" className="flex flex-col items-start gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
            <p>{slotsFailureMessage(toApiError(slots.error ?? firstOpenMonth.error), zone, text)}</p>
            <button type="button" onClick={retry} className={buttonClass("secondary", "sm")}>
              {m.tryAgain}
            </button>
          </div>
        ) : !loaded ? (
          <TimesLoading />
        ) : day ? (
          <DayTimes
            day={day}
            zone={zone}
            times={byDate.get(day)!.map((slot) => ({ slot, label: formatClock(slot.startTime, zone, hour12, intl) }))}
            onPick={onPick}
            chosen={chosen}
            current={day === currentDate && current ? { startTime: current.startTime, label: formatClock(current.startTime, zone, hour12, intl) } : undefined}
          />
        ) : (
          <p className="text-sm text-slate-600">
            {month === null
              ? plural(locale, m.noTimesWindow, windowDays)
              : `${fill(m.noTimesMonth, { month: formatMonth(shownMonth, intl) })}${shownMonth < monthOf(lastDate) ? ` ${m.tryNextMonth}` : ""}`}
          </p>
        )}
      </div>
    </div>
  );
}

type DayTimesProps = {
  day: string;
  /** The zone the times are in (data-zone: for tests and the page benchmark). */
  zone: string;
  times: { slot: SlotDto; label: string }[];
  onPick: (slot: SlotDto) => void;
  chosen?: string | null;
  /** The booking being moved, when it is on this day: marked in its place among the times. */
  current?: { startTime: string; label: string };
};

function DayTimes({ day, zone, times, onPick, chosen, current }: DayTimesProps) {
  const rows: ({ kind: "slot"; slot: SlotDto; label: string } | { kind: "current"; startTime: string; label: string })[] = times.map((t) => ({ kind: "slot", ...t }));
  if (current) {
    const at = rows.findIndex((r) => (r.kind === "slot" ? r.slot.startTime : r.startTime) > current.startTime);
    rows.splice(at === -1 ? rows.length : at, 0, { kind: "current", ...current });
  }
  const firstSlot = rows.findIndex((r) => r.kind === "slot");
  const headingId = useId();
  const { intl, m, locale } = useGuestText();
  return (
    // A group named by its day: "Tuesday, March 16" holds that day's time buttons.
    <div role="group" aria-labelledby={headingId} data-zone={zone} className="flex min-h-0 flex-1 flex-col">
      <h3 id={headingId} className="flex h-10 shrink-0 flex-col justify-center font-semibold text-slate-900 md:text-sm">
        <span className="truncate">{formatCalendarDate(day, { locale: intl })}</span>
      </h3>
      <ul className="mt-1 grid grid-cols-3 gap-2 p-0.5 sm:grid-cols-4 md:grid-cols-1 md:overflow-y-auto md:pr-1.5">
        {rows.map((row, i) => {
          if (row.kind === "current") {
            return (
              <li key="current">
                <p
                  data-testid="current-time"
                  className="flex w-full flex-col items-center rounded-md border border-dashed border-slate-400 bg-slate-50 px-2 py-1 text-sm font-semibold whitespace-nowrap text-slate-700 tabular-nums"
                >
                  {row.label}
                  <span className="text-xs font-normal">{m.currentTime}</span>
                </p>
              </li>
            );
          }
          const { slot, label } = row;
          const pressed = chosen === undefined ? undefined : chosen === slot.startTime;
          return (
            <li key={slot.startTime}>
              <button
                type="button"
                data-start={slot.startTime}
                // Element Timing: the browser reports when it painted the first time (bench:page).
                {...(i === firstSlot ? { elementtiming: "first-time" } : {})}
                aria-pressed={pressed}
                onClick={() => onPick(slot)}
                className={`w-full rounded-md border px-2 py-2.5 text-sm font-semibold whitespace-nowrap tabular-nums transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 ${
                  pressed ? "border-blue-600 bg-blue-600 text-white" : "border-blue-300 text-blue-700 hover:border-blue-600 hover:bg-blue-50"
                }`}
              >
                {label}
                {/* A group session says how many seats are left (when its host shows it: decisions §19). */}
                {slot.seatsRemaining !== undefined && (
                  <span className={`block text-xs font-normal whitespace-normal ${pressed ? "text-blue-50" : "text-slate-600"}`}>{plural(locale, m.seatsLeft, slot.seatsRemaining)}</span>
                )}
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
  const { m } = useGuestText();
  return (
    <div className="flex flex-col" aria-busy="true">
      <p className="flex h-10 items-center text-sm text-slate-500">
        {m.loadingTimes}
      </p>
      <ul aria-hidden="true" className="mt-1 grid grid-cols-3 gap-2 p-0.5 sm:grid-cols-4 md:grid-cols-1">
        {Array.from({ length: 6 }, (_, i) => (
          <li key={i} className="h-[2.625rem] animate-pulse rounded-md bg-slate-100" />
        ))}
      </ul>
    </div>
  );
}

/**
 * The server's preview: the first open month's calendar, and where the times will be, saying they
 * are loading (the live picker's own loading state, so nothing changes until the times come).
 */
function SlotsPreviewView({ preview, below, onMonth }: { preview: SlotsPreview; below?: ReactNode; onMonth?: (month: string) => void }) {
  return (
    <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_12.5rem]">
      <div className="flex min-w-0 flex-col gap-2">
        <MonthCalendar
          month={preview.month}
          weekStart={preview.weekStart}
          today={preview.today}
          lastDate={preview.lastDate}
          counts={new Map(preview.counts)}
          selected={null}
          onSelect={() => {}}
          onMonth={onMonth ?? (() => {})}
        />
        {below}
      </div>
      <div className="flex min-w-0 flex-col md:h-[22.75rem]">
        <TimesLoading />
      </div>
    </div>
  );
}

/** What the server renders before the browser has said the guest's zone: the picker's shape, loading. */
export function SlotPickerPlaceholder({ below }: { below?: ReactNode }) {
  return (
    <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_12.5rem]">
      <div className="flex min-w-0 flex-col gap-2">
        <div aria-hidden="true" className={`rounded-lg bg-slate-50 ${CALENDAR_HEIGHT}`} />
        {below}
      </div>
      <div className="md:h-[22.75rem]">
        <TimesLoading />
      </div>
    </div>
  );
}
