import { DateTime } from "luxon";

// Times as a reader reads them: in their own zone, in words, never ISO.

function at(ms: number, zone: string): DateTime {
  return DateTime.fromMillis(ms, { zone, locale: "en-US" });
}

/** "Monday, March 15, 2027" */
export function dayOf(ms: number, zone: string): string {
  return at(ms, zone).toFormat("cccc, LLLL d, yyyy");
}

/**
 * "Monday, March 15, 2027, 9:00 – 9:30 AM (Europe/Berlin)"; a range that crosses midnight names
 * both days, one that crosses noon both halves of the day.
 */
export function rangeOf(start: number, end: number, zone: string): string {
  const s = at(start, zone);
  const e = at(end, zone);
  let range: string;
  if (!s.hasSame(e, "day")) range = `${s.toFormat("cccc, LLLL d, yyyy, h:mm a")} – ${e.toFormat("cccc, LLLL d, yyyy, h:mm a")}`;
  else if (s.toFormat("a") !== e.toFormat("a")) range = `${s.toFormat("cccc, LLLL d, yyyy, h:mm a")} – ${e.toFormat("h:mm a")}`;
  else range = `${s.toFormat("cccc, LLLL d, yyyy, h:mm")} – ${e.toFormat("h:mm a")}`;
  return `${range} (${zone})`;
}
