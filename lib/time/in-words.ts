import "server-only";
import { DateTime } from "luxon";
import { INTL_TAG, type Locale } from "@/lib/i18n/locales";
import { hour12InZone } from "./reader-clock";

// Times as a reader reads them: in their own zone, on their clock, in their language's words
// ("Monday, March 15, 2027", "Montag, 15. März 2027"), never ISO.

function at(ms: number, zone: string, locale: Locale): DateTime {
  return DateTime.fromMillis(ms, { zone, locale: INTL_TAG[locale] });
}

const DAY: Intl.DateTimeFormatOptions = { weekday: "long", month: "long", day: "numeric", year: "numeric" };

const day = (t: DateTime) => t.toLocaleString(DAY);

/** "Monday, March 15, 2027"; "lundi 15 mars 2027" in French. */
export function dayOf(ms: number, zone: string, locale: Locale = "en"): string {
  return day(at(ms, zone, locale));
}

/**
 * "Monday, March 15, 2027, 9:00 – 9:30 AM (America/New_York)" on a 12-hour clock, "Monday, March
 * 15, 2027, 14:00 – 14:30 (Europe/Berlin)" on a 24-hour one (by default the zone's: see clock.ts).
 * A range that crosses midnight names both days, one on a 12-hour clock that crosses noon both halves.
 */
export function rangeOf(start: number, end: number, zone: string, hour12 = hour12InZone(zone), locale: Locale = "en"): string {
  const s = at(start, zone, locale);
  const e = at(end, zone, locale);
  let range: string;
  if (!hour12) range = s.hasSame(e, "day") ? `${day(s)}, ${s.toFormat("HH:mm")} – ${e.toFormat("HH:mm")}` : `${day(s)}, ${s.toFormat("HH:mm")} – ${day(e)}, ${e.toFormat("HH:mm")}`;
  else if (!s.hasSame(e, "day")) range = `${day(s)}, ${s.toFormat("h:mm a")} – ${day(e)}, ${e.toFormat("h:mm a")}`;
  else if (s.toFormat("a") !== e.toFormat("a")) range = `${day(s)}, ${s.toFormat("h:mm a")} – ${e.toFormat("h:mm a")}`;
  else range = `${day(s)}, ${s.toFormat("h:mm")} – ${e.toFormat("h:mm a")}`;
  return `${range} (${zone})`;
}

// The API's own sentences to a guest (confirmationMessage, the cancel and reschedule answers):
// English keeps the 12-hour clock those sentences always had; the other languages write the
// 24-hour clock their readers customarily use.

/** "Monday, March 15, 2027, 9:00 AM – 9:30 AM (Europe/Berlin)" in English; "Montag, 15. März 2027, 09:00 – 09:30 (Europe/Berlin)". */
export function sentenceRange(start: number, end: number, zone: string, locale: Locale): string {
  if (locale !== "en") return rangeOf(start, end, zone, false, locale);
  const s = at(start, zone, locale);
  return `${s.toFormat("cccc, LLLL d, yyyy, h:mm a")} – ${at(end, zone, locale).toFormat("h:mm a")} (${zone})`;
}

/** "Monday, March 15, 2027, 9:00 AM" in English; "Montag, 15. März 2027, 09:00" (no zone: the caller names it). */
export function sentenceMoment(ms: number, zone: string, locale: Locale): string {
  const t = at(ms, zone, locale);
  return locale === "en" ? t.toFormat("cccc, LLLL d, yyyy, h:mm a") : `${day(t)}, ${t.toFormat("HH:mm")}`;
}
