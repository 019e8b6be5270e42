import { computeSlots, mergeIntervals, type Interval, type LocalInterval, type SlotInput } from "./index";
import { LimitCounter } from "./limits";
import { seatVerdict } from "./seats";
import { dateOfDay, weekdayOfDay, ZoneOffsets } from "./zone";

// "Why is this time not bookable?" (issue 12): for one start, every reason the engine does not
// offer it, each with the data behind it. It walks the same rules as computeSlots, in the same
// terms, and a property test holds the two together: explained as bookable exactly when the
// engine offers the start.

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY_MINUTES = 1440;

/**
 * A busy range that knows where it comes from; a calendar's carries when its busy data was last
 * known to match the provider (epoch ms, null: never), so a reason can say how old it is.
 */
export type SourcedInterval = Interval &
  ({ kind: "booking"; bookingId: string; /** A seat's start's key (decisions §19), null for a booking alone. */ seatKey?: string | null } | { kind: "calendar"; calendarId: string; calendarName: string; busyAsOf?: number | null });

export type ExplainInput = Omit<SlotInput, "range" | "busy"> & { busy: SourcedInterval[]; isActive: boolean };

export type Reason =
  | { code: "event_type_inactive" }
  | { code: "closed_by_override"; date: string }
  | { code: "outside_hours"; date: string; weekday: number; hours: LocalInterval[] }
  | { code: "dst_gap"; date: string; wallMinute: number }
  | { code: "not_on_grid"; stepMinutes: number; nearest: number[] }
  | { code: "min_notice"; earliest: number; minNoticeHours: number }
  | { code: "beyond_window"; lastDate: string; maxAdvanceDays: number }
  | { code: "out_of_office"; timeOffId: string; startDate: string; endDate: string }
  | { code: "holiday"; date: string; name: string }
  | { code: "limit_reached"; period: "day" | "week"; limit: number; count: number; from: string; to: string }
  | { code: "booking_conflict"; bookingId: string; start: number; end: number }
  | { code: "seats_full"; taken: number; max: number }
  | { code: "calendar_conflict"; calendarId: string; calendarName: string; busyAsOf: number | null; start: number; end: number };

export type Explanation = { bookable: boolean; reasons: Reason[] };

/** The host's hours on one local day: the override of its date, else the weekly rules. */
function hoursOfDay(input: ExplainInput, day: number): { hours: LocalInterval[]; override: boolean } {
  const date = dateOfDay(day);
  const override = input.overrides.find((o) => o.date === date);
  if (override) return { hours: override.intervals, override: true };
  const weekday = weekdayOfDay(day);
  return { hours: input.weeklyRules.filter((r) => r.dayOfWeek === weekday), override: false };
}

/** The offered starts nearest to `start` (at most one before and one after), from the day and its neighbours. */
function nearestOffered(input: ExplainInput, zone: ZoneOffsets, day: number, start: number): number[] {
  const slots = computeSlots({
    ...input,
    busy: input.busy,
    range: { from: dateOfDay(day - 1), to: dateOfDay(day + 1), timeZone: input.host.timeZone },
  });
  const before = slots.filter((s) => s.start < start).at(-1);
  const after = slots.find((s) => s.start > start);
  return [before?.start, after?.start].filter((s): s is number => s !== undefined);
}

export function explainSlot(input: ExplainInput, start: number): Explanation {
  const reasons: Reason[] = [];
  const { host, eventType } = input;
  const zone = ZoneOffsets.of(host.timeZone);
  const day = zone.dayOf(start);
  const date = dateOfDay(day);
  const duration = eventType.durationMinutes * MINUTE;
  const end = start + duration;
  const step = eventType.slotIntervalMinutes ?? eventType.durationMinutes;

  if (!input.isActive) reasons.push({ code: "event_type_inactive" });

  // Hours and the grid of the start's own day, as computeSlots walks them.
  const { hours, override } = hoursOfDay(input, day);
  const dayWall = day * DAY_MINUTES;
  if (hours.length === 0) {
    reasons.push(override ? { code: "closed_by_override", date } : { code: "outside_hours", date, weekday: weekdayOfDay(day), hours });
  } else {
    let onGrid = false;
    let overruns = false;
    let insideHours = false;
    let gapMinute: number | undefined;
    for (const h of hours) {
      const intervalStart = zone.instantAtOrAfter(dayWall + h.startMinute);
      const intervalEnd = zone.instantAtOrAfter(dayWall + h.endMinute);
      if (start >= intervalStart && start < intervalEnd) insideHours = true;
      for (let minute = h.startMinute; minute < h.endMinute; minute += step) {
        const candidate = zone.instantOf(dayWall + minute);
        if (candidate === null) {
          // A grid time the DST gap skips: asked for with either offset around the jump.
          const wall = (dayWall + minute) * MINUTE;
          const readings = [wall - zone.offsetAt(wall - 14 * HOUR) * MINUTE, wall - zone.offsetAt(wall + 14 * HOUR) * MINUTE];
          if (readings.includes(start)) gapMinute = minute;
          continue;
        }
        if (candidate !== start) continue;
        // On the grid, but the meeting would run past the end of the hours.
        if (candidate + duration > intervalEnd) overruns = true;
        else onGrid = true;
      }
    }
    if (!onGrid) {
      if (gapMinute !== undefined) reasons.push({ code: "dst_gap", date, wallMinute: gapMinute });
      else if (insideHours && !overruns) reasons.push({ code: "not_on_grid", stepMinutes: step, nearest: nearestOffered(input, zone, day, start) });
      else reasons.push({ code: "outside_hours", date, weekday: weekdayOfDay(day), hours });
    }
  }

  const earliest = input.now + host.minNoticeHours * HOUR;
  if (start < earliest) reasons.push({ code: "min_notice", earliest, minNoticeHours: host.minNoticeHours });
  const lastDay = zone.dayOf(input.now) + host.maxAdvanceDays;
  if (day > lastDay) reasons.push({ code: "beyond_window", lastDate: dateOfDay(lastDay), maxAdvanceDays: host.maxAdvanceDays });

  for (const off of input.timeOff ?? []) {
    if (!(off.start < end && start < off.end)) continue;
    reasons.push(off.kind === "out_of_office" ? { code: "out_of_office", timeOffId: off.id, startDate: off.startDate, endDate: off.endDate } : { code: "holiday", date: off.date, name: off.name });
  }

  const full = new LimitCounter(input.limits, zone).fullOn(day);
  if (full) reasons.push({ code: "limit_reached", ...full });

  const from = start - eventType.bufferBeforeMinutes * MINUTE;
  const to = end + eventType.bufferAfterMinutes * MINUTE;
  const seen = new Set<string>();
  for (const busy of [...input.busy].sort((a, b) => a.start - b.start)) {
    if (!(busy.start < to && from < busy.end) || busy.start >= busy.end) continue;
    if (busy.kind === "booking") {
      if (seen.has(busy.bookingId)) continue;
      seen.add(busy.bookingId);
      reasons.push({ code: "booking_conflict", bookingId: busy.bookingId, start: busy.start, end: busy.end });
    } else {
      reasons.push({ code: "calendar_conflict", calendarId: busy.calendarId, calendarName: busy.calendarName, busyAsOf: busy.busyAsOf ?? null, start: busy.start, end: busy.end });
    }
  }
  if (input.seats) {
    const seat = seatVerdict(input.seats, start, from, to);
    if (!seat.free && seat.why === "full") reasons.push({ code: "seats_full", taken: seat.seated.taken, max: input.seats.max });
    if (!seat.free && seat.why === "overlap") {
      const { bookingId = "", blocked } = seat.seated;
      reasons.push({ code: "booking_conflict", bookingId, start: blocked.start, end: blocked.end });
    }
  }
  return { bookable: reasons.length === 0, reasons };
}

/** The engine's own view of the same input, for callers and tests that hold the two together. */
export function engineInputOf(input: ExplainInput): Omit<SlotInput, "range"> {
  return {
    now: input.now,
    host: input.host,
    weeklyRules: input.weeklyRules,
    overrides: input.overrides,
    eventType: input.eventType,
    busy: mergeIntervals(input.busy),
    ...(input.limits ? { limits: input.limits } : {}),
    ...(input.seats ? { seats: input.seats } : {}),
    ...(input.timeOff ? { timeOff: input.timeOff } : {}),
  };
}
