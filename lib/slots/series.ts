import { isOfferedSlot, type SlotInput } from "./index";
import { ZoneOffsets } from "./zone";

// Recurring bookings (decisions §19): a series keeps its first start's wall-clock time in the zone
// the host's hours are read in, `everyWeeks` apart, across daylight-saving changes (10:00 in
// New York stays 10:00 when the offset moves from -05:00 to -04:00). Pure like the engine.

const MINUTE = 60_000;
const WEEK_MINUTES = 7 * 1440;

/**
 * The starts of a series of `count` occurrences from `first`. An occurrence whose wall-clock time
 * the clocks skip that day gives the instant they jump to (never free: seriesFree refuses a time
 * that is not the series' own).
 */
export function seriesStarts(first: number, timeZone: string, everyWeeks: number, count: number): number[] {
  const zone = ZoneOffsets.of(timeZone);
  const wall = Math.floor(first / MINUTE) + zone.offsetAt(first);
  return Array.from({ length: count }, (_, k) => (k === 0 ? first : zone.instantAtOrAfter(wall + k * everyWeeks * WEEK_MINUTES)));
}

/** How far ahead the later occurrences may reach: the notice and window bind the first one only. */
const UNBOUNDED_DAYS = 1_000_000;

/**
 * Whether each start of a series is one the engine offers with this input: the first under the
 * host's notice and window, the later ones under everything else (hours, overrides, busy time,
 * limits, seats). The occurrences are a week or more apart, so none shares a day, an ISO week or
 * time with another, and checking each alone counts the series' own occurrences toward the
 * limits as well as together would.
 */
export function seriesFree(input: Omit<SlotInput, "range">, starts: number[]): boolean[] {
  const later = { ...input, host: { ...input.host, minNoticeHours: 0, maxAdvanceDays: UNBOUNDED_DAYS } };
  const zone = ZoneOffsets.of(input.host.timeZone);
  const clock = (at: number) => (((Math.floor(at / MINUTE) + zone.offsetAt(at)) % 1440) + 1440) % 1440;
  const own = starts.length > 0 ? clock(starts[0]!) : 0;
  // A start moved off the series' time by a skipped hour is not the session the guest asked for.
  return starts.map((start, k) => start >= input.now && clock(start) === own && isOfferedSlot(k === 0 ? input : later, start));
}
