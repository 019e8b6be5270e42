import { DateTime } from "luxon";
import { hour12InZone } from "./clock";

// Times as a reader reads them: in their own zone, on their clock, in words, never ISO.

function at(ms: number, zone: string): DateTime {
  return DateTime.fromMillis(ms, { zone, locale: "en-US" });
}

/** "Monday, March 15, 2027" */
export function dayOf(ms: number, zone: string): string {
  return at(ms, zone).toFormat("cccc, LLLL d, yyyy");
}

/**
 * "Monday, March 15, 2027, 9:00 – 9:30 AM (America/New_York)" on a 12-hour clock, "Monday, March
 * 15, 2027, 14:00 – 14:30 (Europe/Berlin)" on a 24-hour one (by default the zone's: see clock.ts).
 * A range that crosses midnight names both days, one on a 12-hour clock that crosses noon both halves.
 */
export function rangeOf(start: number, end: number, zone: string, hour12 = hour12InZone(zone)): string {
  const s = at(start, zone);
  const e = at(end, zone);
  const day = "cccc, LLLL d, yyyy, ";
  let range: string;
  if (!hour12) range = s.hasSame(e, "day") ? `${s.toFormat(`${day}HH:mm`)} – ${e.toFormat("HH:mm")}` : `${s.toFormat(`${day}HH:mm`)} – ${e.toFormat(`${day}HH:mm`)}`;
  else if (!s.hasSame(e, "day")) range = `${s.toFormat(`${day}h:mm a`)} – ${e.toFormat(`${day}h:mm a`)}`;
  else if (s.toFormat("a") !== e.toFormat("a")) range = `${s.toFormat(`${day}h:mm a`)} – ${e.toFormat("h:mm a")}`;
  else range = `${s.toFormat(`${day}h:mm`)} – ${e.toFormat("h:mm a")}`;
  return `${range} (${zone})`;
}
