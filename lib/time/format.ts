// Dates and times for people, in a given zone, with the browser's (or a given) locale: the
// pages never show an ISO string. Intl only: no date library in the browser bundle.

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * One Intl.DateTimeFormat per locale and options, kept: making one costs about 0.4 ms in a
 * browser, formatting with it a microsecond (a month of slots grouped by day made 150 of them
 * per render).
 */
export function dateTimeFormat(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? ""}|${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    if (formatters.size >= 500) formatters.clear();
    formatters.set(key, format);
  }
  return format;
}

/** YYYY-MM-DD of an instant in a zone. */
export function dateInZone(instant: string | number | Date, timeZone: string): string {
  const parts = dateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/** "Mon, Nov 30, 2026" */
export function formatDay(instant: string | number | Date, timeZone: string, locale?: string): string {
  return dateTimeFormat(locale, { timeZone, weekday: "short", month: "short", day: "numeric", year: "numeric" }).format(new Date(instant));
}

// `hour12: false` alone lets ICU pick the h24 cycle in some locales, so midnight reads "24:00";
// a 24-hour clock is asked for as h23 instead.
const clock = (hour12: boolean | undefined): Intl.DateTimeFormatOptions => (hour12 === false ? { hourCycle: "h23" } : { hour12 });

/** "9:00 AM" or "09:00", as the locale (or `hour12`) says. */
export function formatTime(instant: string | number | Date, timeZone: string, options: { locale?: string; hour12?: boolean } = {}): string {
  return dateTimeFormat(options.locale, { timeZone, hour: "numeric", minute: "2-digit", ...clock(options.hour12) }).format(new Date(instant));
}

/** "Mon, Nov 30, 2026 · 9:00 – 9:30 AM" */
export function formatRange(start: string, end: string, timeZone: string, options: { locale?: string; hour12?: boolean } = {}): string {
  const range = dateTimeFormat(options.locale, { timeZone, hour: "numeric", minute: "2-digit", ...clock(options.hour12) }).formatRange(
    new Date(start),
    new Date(end),
  );
  return `${formatDay(start, timeZone, options.locale)} · ${range}`;
}

// The guest pages are written in the guest's language (`locale`, an Intl tag such as "de-DE";
// English by default): day and month names follow it. The clock does not: it is the guest's
// choice (12 or 24 hours, by default their browser's), the same everywhere on the page.

/** "16:00", or "4:00 PM" with `hour12`: the wall time of an instant in a zone. */
export function formatClock(instant: string | number | Date, timeZone: string, hour12 = false, locale = "en-US"): string {
  return dateTimeFormat(locale, { timeZone, hour: hour12 ? "numeric" : "2-digit", minute: "2-digit", ...clock(hour12) }).format(new Date(instant));
}

/** "16:00–16:30" or "4:00 PM–4:30 PM": each end written in full, so a range across noon reads plainly. */
export function formatClockRange(start: string | number | Date, end: string | number | Date, timeZone: string, hour12 = false, locale = "en-US"): string {
  return `${formatClock(start, timeZone, hour12, locale)}–${formatClock(end, timeZone, hour12, locale)}`;
}

/** "Monday, March 15" (or "Monday, March 15, 2027" with `year`; "Montag, 15. März" in German): the day of an instant in a zone. */
export function formatLongDay(instant: string | number | Date, timeZone: string, options: { year?: boolean; locale?: string } = {}): string {
  return dateTimeFormat(options.locale ?? "en-US", { timeZone, weekday: "long", month: "long", day: "numeric", year: options.year ? "numeric" : undefined }).format(
    new Date(instant),
  );
}

/** "Mar 15": a calendar date (YYYY-MM-DD) as such, whatever zone the reader is in. */
export function formatShortDate(date: string, options: { year?: boolean } = {}): string {
  return dateTimeFormat("en-US", { timeZone: "UTC", month: "short", day: "numeric", year: options.year ? "numeric" : undefined }).format(
    new Date(`${date}T12:00:00Z`),
  );
}

/** The zone's offset at an instant, "UTC+01:00". */
export function zoneOffsetLabel(timeZone: string, at: Date = new Date()): string {
  const name = dateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" }).formatToParts(at).find((p) => p.type === "timeZoneName")?.value;
  return !name || name === "GMT" ? "UTC+00:00" : name.replace("GMT", "UTC");
}

/** YYYY-MM-DD plus `days`, as calendar arithmetic (no zone involved). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Offset of a zone at an instant, in minutes (e.g. -240 for New York in summer). */
export function offsetMinutes(timeZone: string, at: number): number {
  const parts = dateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" }).formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour") % 24, get("minute"), get("second"));
  return Math.round((asUtc - Math.floor(at / 1000) * 1000) / 60_000);
}

/** The instant a wall-clock date and time (YYYY-MM-DD, HH:mm) names in a zone (its first occurrence). */
export function instantOfWall(date: string, time: string, timeZone: string): number {
  const wall = Date.parse(`${date}T${time}:00Z`);
  // Two passes: the offset at the guess, then at the corrected instant (around a DST change).
  let instant = wall - offsetMinutes(timeZone, wall) * 60_000;
  instant = wall - offsetMinutes(timeZone, instant) * 60_000;
  return instant;
}

/** "Pacific Daylight Time" ("Nordamerikanische Westküsten-Sommerzeit"): the zone's name at an instant, as people say it (the IANA name when Intl has none). */
export function zoneLongName(timeZone: string, at: string | number | Date = new Date(), locale = "en-US"): string {
  const name = dateTimeFormat(locale, { timeZone, timeZoneName: "long" }).formatToParts(new Date(at)).find((p) => p.type === "timeZoneName")?.value;
  return name && !/^GMT[+-]/.test(name) ? name : timeZone;
}
