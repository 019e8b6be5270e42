import type { TimeOff } from "./index";
import { dayOfDate, ZoneOffsets } from "./zone";

// Days off as the engine reads them (decisions §21): a host's time off and public holidays are
// dates of the host's own calendar, so each becomes the instants from its first local midnight to
// the midnight after its last day, in the host's zone: 23 or 25 hours on a DST day, and the same
// date lands on another date for a guest across the date line. Pure, like the rest of lib/slots.

const DAY_MINUTES = 1440;

/** A period away: dates inclusive, in the host's zone. */
export type AwayPeriod = { id: string; startDate: string; endDate: string };
/** A public holiday of the host's place, by its local date. */
export type HolidayDate = { date: string; name: string };

/** The instants of `zone` from the midnight starting `first` to the midnight after `last` (both dates). */
function localDays(zone: ZoneOffsets, first: string, last: string): { start: number; end: number } {
  return { start: zone.instantAtOrAfter(dayOfDate(first) * DAY_MINUTES), end: zone.instantAtOrAfter((dayOfDate(last) + 1) * DAY_MINUTES) };
}

/**
 * The engine's `timeOff` for a host in `timeZone`: every period away, and every holiday not in
 * `workingOn` (the dates the host works anyway).
 */
export function timeOffOf(timeZone: string, away: AwayPeriod[], holidays: HolidayDate[], workingOn: readonly string[] = []): TimeOff[] {
  const zone = ZoneOffsets.of(timeZone);
  const working = new Set(workingOn);
  return [
    ...away.map((p): TimeOff => ({ ...localDays(zone, p.startDate, p.endDate), kind: "out_of_office", id: p.id, startDate: p.startDate, endDate: p.endDate })),
    ...holidays.filter((h) => !working.has(h.date)).map((h): TimeOff => ({ ...localDays(zone, h.date, h.date), kind: "holiday", date: h.date, name: h.name })),
  ];
}
