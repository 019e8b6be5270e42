import type { Insights } from "@/lib/schemas/insights";
import { dateTimeFormat } from "@/lib/time/format";

// The Insights page's words (decisions §22): counts with their nouns, dates, weekdays and hours
// as the host's language writes them, lead times, and the one-sentence summary each chart carries
// for a screen reader. Pure, and with plain spaces (Node's ICU and Chromium's differ in the thin
// and narrow spaces they put around dashes and before AM), so the server's first HTML and the
// browser's render read the same.

const plainSpaces = (text: string) => text.replace(/[\u00a0\u2009\u202f]/g, " ");

/** "1 booking", "3 bookings". */
export const countOf = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

const utcNoon = (date: string) => new Date(`${date}T12:00:00Z`);

/** "Mar 15" (with `year`: "Mar 15, 2026"): a calendar date (YYYY-MM-DD) in the host's language. */
export const dayWords = (date: string, locale: string, options: { year?: boolean; weekday?: boolean } = {}): string =>
  plainSpaces(
    dateTimeFormat(locale, { timeZone: "UTC", weekday: options.weekday ? "short" : undefined, month: "short", day: "numeric", year: options.year ? "numeric" : undefined }).format(
      utcNoon(date),
    ),
  );

/** "Mar 1 – 30, 2026": a range of calendar dates, as the language shortens it. */
export const rangeWords = (from: string, to: string, locale: string): string =>
  plainSpaces(dateTimeFormat(locale, { timeZone: "UTC", month: "short", day: "numeric", year: "numeric" }).formatRange(utcNoon(from), utcNoon(to)));

// 2023-01-01 was a Sunday: weekday w (0 = Sunday, as the API counts) is that date plus w days.
const weekdayDate = (weekday: number) => new Date(Date.UTC(2023, 0, 1 + weekday, 12));

/** "Mon" / "Monday" (or "Mo." / "Montag") for 0 = Sunday … 6 = Saturday. */
export const weekdayWords = (weekday: number, locale: string, width: "short" | "long" = "short"): string =>
  dateTimeFormat(locale, { timeZone: "UTC", weekday: width }).format(weekdayDate(weekday));

/** "9 AM" or "09 Uhr": an hour of the day as the language writes it. */
export const hourWords = (hour: number, locale: string): string =>
  plainSpaces(dateTimeFormat(locale, { timeZone: "UTC", hour: "numeric" }).format(new Date(Date.UTC(2023, 0, 1, hour))));

type WeekInfo = { firstDay: number };

/**
 * The weekday a week starts on in the language's region (0 = Sunday, 1 = Monday…): Sunday for
 * English, Monday for German or French. Monday where the runtime cannot say (Intl.Locale's week
 * information is newer than Intl itself). The server works it out once, for both renders.
 */
export function weekStartOf(locale: string): number {
  try {
    const l = new Intl.Locale(locale) as Intl.Locale & { getWeekInfo?: () => WeekInfo; weekInfo?: WeekInfo };
    const info = l.getWeekInfo?.() ?? l.weekInfo;
    return info ? info.firstDay % 7 : 1;
  } catch {
    return 1;
  }
}

/** The weekdays in the order the host's week runs. */
export const weekdaysFrom = (weekStart: number): number[] => Array.from({ length: 7 }, (_, i) => (weekStart + i) % 7);

/** "5 hours" under 48 hours, else "3 days"; less than an hour said so. */
export function leadWords(hours: number): string {
  if (hours < 1) return "less than an hour";
  if (hours < 48) return countOf(Math.round(hours), "hour");
  return countOf(Math.round(hours / 24), "day");
}

/** "Guests book a median of 2 days ahead; 9 in 10 within 12 days.", or null without bookings. */
export function leadTimeSentence({ median, p90 }: Insights["leadTimeHours"]): string | null {
  if (median === null || p90 === null) return null;
  return `Guests book a median of ${leadWords(median)} ahead; 9 in 10 within ${leadWords(p90)}.`;
}

/** "on Tue, Mar 10 (6 bookings)": the busiest day of the range, or null when none had a booking. */
function busiestDay(byDay: Insights["byDay"], locale: string): string | null {
  const top = byDay.reduce<Insights["byDay"][number] | null>((best, d) => (d.bookings > (best?.bookings ?? 0) ? d : best), null);
  return top ? `${dayWords(top.date, locale, { weekday: true })} (${countOf(top.bookings, "booking")})` : null;
}

/** The bookings-per-day chart in a sentence. */
export function byDaySummary(insights: Insights, locale: string): string {
  const { bookings, cancelled, noShow } = insights.totals;
  const busiest = busiestDay(insights.byDay, locale);
  return (
    `Bookings per day, ${rangeWords(insights.from, insights.to, locale)}: ${countOf(bookings, "booking")}` +
    `${busiest ? `, the most on ${busiest}` : ""}; ${cancelled} cancelled, ${countOf(noShow, "no-show")}.`
  );
}

const MOST_NAMED = 5;

/** "Intro call 20, Coaching 12 and 2 more": the first few bars of a chart in a sentence (without their values: the names only). */
function listed(items: { name: string; value: number }[], values = true): string {
  const named = items.slice(0, MOST_NAMED).map((i) => (values ? `${i.name} ${i.value}` : i.name));
  const more = items.length - named.length;
  if (more > 0) return `${named.join(", ")} and ${more} more`;
  return named.length > 1 ? `${named.slice(0, -1).join(", ")} and ${named.at(-1)}` : named.join("");
}

export const byEventTypeSummary = (rows: Insights["byEventType"]): string =>
  `Bookings per event type: ${listed(rows.map((r) => ({ name: r.title, value: r.bookings })))}.`;

export const byHostSummary = (rows: Insights["byHost"]): string =>
  `Bookings per host of your team event types, not cancelled: ${listed(rows.map((r) => ({ name: r.fullName, value: r.bookings })))}.`;

const hourOfWeek = (c: { weekday: number; hour: number }, locale: string) => `${weekdayWords(c.weekday, locale, "long")} at ${hourWords(c.hour, locale)}`;

/**
 * "When bookings start, by weekday and hour: most often on Tuesday at 10 AM (5 bookings)." When
 * several hours share the most, they are named as such (one of them alone would mislead).
 */
export function heatMapSummary(cells: Insights["byWeekdayHour"], locale: string): string {
  const most = Math.max(0, ...cells.map((c) => c.bookings));
  if (most === 0) return "No bookings start in these dates, apart from cancelled ones.";
  const top = cells.filter((c) => c.bookings === most).sort((a, b) => a.weekday - b.weekday || a.hour - b.hour);
  if (top.length === 1) return `When bookings start, by weekday and hour: most often on ${hourOfWeek(top[0]!, locale)} (${countOf(most, "booking")}).`;
  if (top.length > 3) return `When bookings start, by weekday and hour: no hour stands out, ${top.length} hours of the week have ${countOf(most, "booking")} each.`;
  return `When bookings start, by weekday and hour: the busiest hours, ${countOf(most, "booking")} each, are ${listed(top.map((c) => ({ name: hourOfWeek(c, locale), value: most })), false)}.`;
}
