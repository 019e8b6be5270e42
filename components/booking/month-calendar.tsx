"use client";

import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { ChevronLeftIcon, ChevronRightIcon } from "@/components/ui/icons";
import { addMonths, firstOfMonth, formatCalendarDate, formatMonth, lastOfMonth, monthOf, monthWeeks, weekdayNames, weekdayOf } from "@/lib/time/month-grid";
import { addDays } from "@/lib/time/format";
import { fill, plural } from "@/lib/i18n/fill";
import { useGuestText, type GuestText } from "./guest-i18n";

type Props = {
  /** "YYYY-MM" shown. */
  month: string;
  /** 0 Sunday … 6 Saturday: the first column. */
  weekStart: number;
  /** Today in the guest's zone, and the last day the booking window may reach. */
  today: string;
  lastDate: string;
  /** Open times per date; undefined while they load. */
  counts: Map<string, number> | undefined;
  selected: string | null;
  onSelect: (date: string) => void;
  onMonth: (month: string) => void;
};

// Fixed sizes: six rows always, so nothing below moves from month to month or while loading.
export const CALENDAR_HEIGHT = "h-[22.75rem]";

/**
 * A month of days as an ARIA grid (the APG date picker's keyboard): one day is in the tab order;
 * arrows move by day and week, Home/End to the week's ends, Page Up/Down by month; Enter or Space
 * chooses a day that has open times.
 */
export function MonthCalendar({ month, weekStart, today, lastDate, counts, selected, onSelect, onMonth }: Props) {
  const headingId = useId();
  const text = useGuestText();
  const { intl, m } = text;
  const grid = useRef<HTMLTableElement>(null);
  const [focus, setFocus] = useState<string | null>(null);
  // Set by a key press: the focus follows the day it moved to once that day is rendered.
  const moved = useRef(false);
  const minMonth = monthOf(today);
  const maxMonth = monthOf(lastDate);
  const inMonth = (date: string) => monthOf(date) === month;
  const focusDate = focus && inMonth(focus) ? focus : selected && inMonth(selected) ? selected : inMonth(today) ? today : firstOfMonth(month);

  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    grid.current?.querySelector<HTMLButtonElement>(`button[data-date="${focusDate}"]`)?.focus();
  }, [focusDate]);

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, date: string) {
    const column = (weekdayOf(date) - weekStart + 7) % 7;
    const moves: Record<string, () => string> = {
      ArrowLeft: () => addDays(date, -1),
      ArrowRight: () => addDays(date, 1),
      ArrowUp: () => addDays(date, -7),
      ArrowDown: () => addDays(date, 7),
      Home: () => addDays(date, -column),
      End: () => addDays(date, 6 - column),
      PageUp: () => sameDayIn(addMonths(monthOf(date), -1), date),
      PageDown: () => sameDayIn(addMonths(monthOf(date), 1), date),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    const next = move();
    // Not before this month, not past the booking window's.
    if (monthOf(next) < minMonth || monthOf(next) > maxMonth) return;
    moved.current = true;
    setFocus(next);
    if (!inMonth(next)) onMonth(monthOf(next));
  }

  const names = weekdayNames(weekStart, intl);
  return (
    <div className={`flex flex-col ${CALENDAR_HEIGHT}`}>
      <div className="flex h-10 items-center justify-between gap-2">
        <h3 id={headingId} className="font-semibold text-slate-900" aria-live="polite">
          {formatMonth(month, intl)}
        </h3>
        <div className="flex gap-1">
          <button type="button" aria-label={m.previousMonth} disabled={month <= minMonth} onClick={() => onMonth(addMonths(month, -1))} className={navClass}>
            <ChevronLeftIcon />
          </button>
          <button type="button" aria-label={m.nextMonth} disabled={month >= maxMonth} onClick={() => onMonth(addMonths(month, 1))} className={navClass}>
            <ChevronRightIcon />
          </button>
        </div>
      </div>
      <table ref={grid} role="grid" aria-labelledby={headingId} className="mt-1 w-full table-fixed border-collapse">
        <thead>
          <tr className="h-8">
            {names.map((n) => (
              <th key={n.long} scope="col" className="text-xs font-medium text-slate-500 uppercase">
                <span aria-hidden="true">{n.short}</span>
                <span className="sr-only">{n.long}</span>
              </th>
            ))}
          </tr>
        </thead>
        {/* Keyed by month: another month is another grid. Reused week rows would slide to their
            new places when the month turns (a layout shift: the first open month is often not
            this one); new rows simply appear. */}
        <tbody key={month}>
          {monthWeeks(month, weekStart).map((week) => (
            <tr key={week[0]} className="h-12">
              {week.map((date) =>
                inMonth(date) ? (
                  <td key={date} aria-selected={date === selected} className="p-0 text-center">
                    <Day
                      text={text}
                      date={date}
                      count={counts && date >= today && date <= lastDate ? (counts.get(date) ?? 0) : undefined}
                      loading={!counts}
                      isToday={date === today}
                      selected={date === selected}
                      tabbable={date === focusDate}
                      onChoose={() => {
                        setFocus(date);
                        onSelect(date);
                      }}
                      onFocus={() => setFocus(date)}
                      onKeyDown={(e) => onKeyDown(e, date)}
                    />
                  </td>
                ) : (
                  <td key={date} />
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const navClass =
  "flex size-9 items-center justify-center rounded-full text-blue-700 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:text-slate-300 disabled:hover:bg-transparent";

/** The same day of the month in another month, or that month's last day (31 → 30). */
function sameDayIn(month: string, date: string): string {
  const last = lastOfMonth(month);
  const day = `${month}-${date.slice(8)}`;
  return day > last ? last : day;
}

type DayProps = {
  text: GuestText;
  date: string;
  /** Open times that day; undefined outside the booking window. */
  count: number | undefined;
  loading: boolean;
  isToday: boolean;
  selected: boolean;
  tabbable: boolean;
  onChoose: () => void;
  onFocus: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => void;
};

function Day({ text, date, count, loading, isToday, selected, tabbable, onChoose, onFocus, onKeyDown }: DayProps) {
  const open = !loading && (count ?? 0) > 0;
  const { locale, intl, m } = text;
  const day = formatCalendarDate(date, { locale: intl });
  const label = loading
    ? day
    : count === undefined
      ? fill(m.dayNotBookable, { day })
      : count === 0
        ? fill(m.dayNoTimes, { day })
        : plural(locale, m.dayOpenTimes, count, { day });
  const look = selected
    ? "bg-blue-600 font-semibold text-white"
    : open
      ? "bg-blue-50 font-semibold text-blue-700 hover:bg-blue-100"
      : "cursor-default text-slate-400";
  return (
    <button
      type="button"
      data-date={date}
      tabIndex={tabbable ? 0 : -1}
      aria-label={label}
      aria-disabled={!open || undefined}
      aria-current={isToday ? "date" : undefined}
      onClick={() => open && onChoose()}
      onFocus={onFocus}
      onKeyDown={onKeyDown}
      className={`relative mx-auto flex size-11 items-center justify-center rounded-full text-sm tabular-nums transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 ${look}`}
    >
      {Number(date.slice(8))}
      {isToday && <span aria-hidden="true" className="absolute bottom-1.5 left-1/2 size-1 -translate-x-1/2 rounded-full bg-current" />}
    </button>
  );
}
