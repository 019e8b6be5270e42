// A month calendar as plain dates: months are "YYYY-MM", days "YYYY-MM-DD", weekdays 0 (Sunday)
// to 6. No zone and no clock: which day is "today" is the caller's to say, in the guest's zone.
// Intl only, so the booking page carries no date library.

import { addDays, dateTimeFormat } from "./format";

/** "2027-03" of "2027-03-15". */
export const monthOf = (date: string): string => date.slice(0, 7);

/** The month `n` months after `month` (negative goes back). */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const index = y * 12 + (m - 1) + n;
  return `${String(Math.floor(index / 12)).padStart(4, "0")}-${String((index % 12) + 1).padStart(2, "0")}`;
}

export const firstOfMonth = (month: string): string => `${month}-01`;

/** The month's last day: the day before the next month's first. */
export const lastOfMonth = (month: string): string => addDays(firstOfMonth(addMonths(month, 1)), -1);

/** 0 (Sunday) … 6 (Saturday) of a calendar date. */
export const weekdayOf = (date: string): number => new Date(`${date}T12:00:00Z`).getUTCDay();

/**
 * The weeks a month calendar shows: always six rows of seven dates, so the grid keeps its height
 * from month to month. Days of the neighbouring months fill the first and last rows.
 */
export function monthWeeks(month: string, weekStart: number): string[][] {
  const first = firstOfMonth(month);
  const start = addDays(first, -((weekdayOf(first) - weekStart + 7) % 7));
  return Array.from({ length: 6 }, (_, w) => Array.from({ length: 7 }, (_, d) => addDays(start, w * 7 + d)));
}

/** The first day of the week in `locale` (0 Sunday, 1 Monday …), from Intl's week data where the browser has it. */
export function weekStartOf(locale: string | undefined): number {
  try {
    const l = new Intl.Locale(locale ?? new Intl.DateTimeFormat().resolvedOptions().locale) as Intl.Locale & {
      getWeekInfo?: () => { firstDay: number };
      weekInfo?: { firstDay: number };
    };
    const info = l.getWeekInfo?.() ?? l.weekInfo;
    // Intl counts 1 (Monday) … 7 (Sunday).
    if (info) return info.firstDay % 7;
    return l.region === "US" || l.region === "CA" || l.region === "JP" ? 0 : 1;
  } catch {
    return 0;
  }
}

/** Whether the locale writes times on a 12-hour clock ("4:00 PM"), probing when Intl does not say. */
export function prefersHour12(locale: string | undefined): boolean {
  try {
    const format = new Intl.DateTimeFormat(locale, { hour: "numeric" });
    const cycle = format.resolvedOptions().hourCycle;
    if (cycle) return cycle === "h11" || cycle === "h12";
    return !format.format(new Date(Date.UTC(2000, 0, 1, 13))).includes("13");
  } catch {
    return false;
  }
}

/** "March 2027" ("März 2027" with locale "de-DE") */
export function formatMonth(month: string, locale = "en-US"): string {
  return dateTimeFormat(locale, { timeZone: "UTC", month: "long", year: "numeric" }).format(new Date(`${firstOfMonth(month)}T12:00:00Z`));
}

/** The weekday names of a week starting on `weekStart`: "Mon" and "Monday" … */
export function weekdayNames(weekStart: number, locale = "en-US"): { short: string; long: string }[] {
  // 2027-03-07 is a Sunday.
  return Array.from({ length: 7 }, (_, i) => {
    const d = new Date(`${addDays("2027-03-07", (weekStart + i) % 7)}T12:00:00Z`);
    const name = (weekday: "short" | "long") => dateTimeFormat(locale, { timeZone: "UTC", weekday }).format(d);
    return { short: name("short"), long: name("long") };
  });
}

/** "Tuesday, March 16" (with `year`, "Tuesday, March 16, 2027"): a calendar date as such. */
export function formatCalendarDate(date: string, options: { year?: boolean; locale?: string } = {}): string {
  return dateTimeFormat(options.locale ?? "en-US", { timeZone: "UTC", weekday: "long", month: "long", day: "numeric", year: options.year ? "numeric" : undefined }).format(
    new Date(`${date}T12:00:00Z`),
  );
}
