import { LimitCounter, type LimitsInput } from "./limits";
import { seatVerdict, type SeatsInput } from "./seats";
import { dateOfDay, dayOfDate, formatLocal, weekdayOfDay, ZoneOffsets } from "./zone";

// The one slot engine (decisions §7), shared by the API and the pages. Pure: no database, no
// clock, no environment; `now` and the zones are arguments, so the same input always gives the
// same slots. All instants are epoch milliseconds; every interval is half-open [start, end).

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY_MINUTES = 1440;

/** Minutes after local midnight; `endMinute` 1440 is 24:00. */
export type LocalInterval = { startMinute: number; endMinute: number };
export type WeeklyRule = LocalInterval & { dayOfWeek: number };
/** Replaces the weekly rules of its date: `intervals` empty means closed. */
export type DateOverride = { date: string; intervals: LocalInterval[] };
export type Interval = { start: number; end: number };

export type SlotInput = {
  now: number;
  host: { timeZone: string; minNoticeHours: number; maxAdvanceDays: number };
  weeklyRules: WeeklyRule[];
  overrides: DateOverride[];
  eventType: {
    durationMinutes: number;
    bufferBeforeMinutes: number;
    bufferAfterMinutes: number;
    slotIntervalMinutes: number | null;
  };
  /**
   * What the host is already doing: the blocked ranges of pending and confirmed bookings (their
   * buffers included) and the busy intervals of calendars that check conflicts.
   */
  busy: Interval[];
  /**
   * The event type's booking limits and this host's non-cancelled bookings of it (their starts,
   * at least from the Monday before the range): a local day or ISO week of `host.timeZone` that
   * is full offers nothing. Absent: no limits.
   */
  limits?: LimitsInput;
  /**
   * A seated event type (decisions §19): its capacity and its own seated starts, which are not in
   * `busy`. A start is offered while it has a free seat and overlaps no other seated start; its
   * slot then carries `seatsRemaining`. Absent: one guest per start.
   */
  seats?: SeatsInput;
  /**
   * Whole days the host is away (decisions §21): time off and public holidays, each the span of
   * its local days in the host's own zone. A slot that overlaps one is not offered (its buffers
   * may). Absent: none.
   */
  timeOff?: TimeOff[];
  /** Dates in `timeZone`, both inclusive: a slot is listed when its start falls on one of them. */
  range: { from: string; to: string; timeZone: string };
};

/** A day off as the engine reads it: the instants it covers and why (explain names it). */
export type TimeOff = Interval &
  ({ kind: "out_of_office"; id: string; startDate: string; endDate: string } | { kind: "holiday"; date: string; name: string });

/** An offered start; a seated event type's says how many seats are left. */
export type Slot = Interval & { seatsRemaining?: number };

/** Sorted, disjoint copy of the busy intervals, so one binary search answers "is this free?". */
export function mergeIntervals(intervals: Interval[]): Interval[] {
  const sorted = intervals.filter((i) => i.start < i.end).sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const { start, end } of sorted) {
    const last = merged[merged.length - 1];
    if (last && start <= last.end) last.end = Math.max(last.end, end);
    else merged.push({ start, end });
  }
  return merged;
}

/** Whether [start, end) overlaps one of the merged intervals (touching is not overlapping). */
function overlapsAny(merged: Interval[], start: number, end: number): boolean {
  // The first interval that ends after `start` is the only one that can overlap.
  let lo = 0;
  let hi = merged.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (merged[mid]!.end <= start) lo = mid + 1;
    else hi = mid;
  }
  const candidate = merged[lo];
  return candidate !== undefined && candidate.start < end;
}

/** The host's open hours of one local day: the override for its date, else the weekly rules. */
function hoursOf(day: number, rulesByWeekday: LocalInterval[][], overrides: Map<string, LocalInterval[]>): LocalInterval[] {
  return overrides.get(dateOfDay(day)) ?? rulesByWeekday[weekdayOfDay(day)]!;
}

/** Every bookable slot of the query, sorted by start, each start unique. */
export function computeSlots(input: SlotInput): Slot[] {
  const { host, eventType } = input;
  const hostZone = ZoneOffsets.of(host.timeZone);
  const guestZone = host.timeZone === input.range.timeZone ? hostZone : ZoneOffsets.of(input.range.timeZone);

  // The guest's dates as instants: [first midnight, midnight after the last date).
  const rangeStart = midnightOf(guestZone, dayOfDate(input.range.from));
  const rangeEnd = midnightOf(guestZone, dayOfDate(input.range.to) + 1);
  const earliest = Math.max(rangeStart, input.now + host.minNoticeHours * HOUR);
  if (earliest >= rangeEnd) return [];

  // Window: the start's date in the host's zone is at most maxAdvanceDays after today there.
  const lastDay = Math.min(hostZone.dayOf(input.now) + host.maxAdvanceDays, hostZone.dayOf(rangeEnd - 1));
  const firstDay = hostZone.dayOf(earliest);

  const rulesByWeekday: LocalInterval[][] = [[], [], [], [], [], [], []];
  for (const r of input.weeklyRules) rulesByWeekday[r.dayOfWeek]!.push(r);
  const overrides = new Map(input.overrides.map((o) => [o.date, o.intervals]));
  const busy = mergeIntervals(input.busy);
  const away = mergeIntervals(input.timeOff ?? []);
  const limits = new LimitCounter(input.limits, hostZone);

  const duration = eventType.durationMinutes * MINUTE;
  const step = eventType.slotIntervalMinutes ?? eventType.durationMinutes;
  const before = eventType.bufferBeforeMinutes * MINUTE;
  const after = eventType.bufferAfterMinutes * MINUTE;

  const slots: Slot[] = [];
  for (let day = firstDay; day <= lastDay; day++) {
    if (limits.fullOn(day)) continue;
    const dayWall = day * DAY_MINUTES;
    for (const hours of hoursOf(day, rulesByWeekday, overrides)) {
      const intervalEnd = hostZone.instantAtOrAfter(dayWall + hours.endMinute);
      for (let minute = hours.startMinute; minute < hours.endMinute; minute += step) {
        const start = hostZone.instantOf(dayWall + minute);
        if (start === null) continue; // a wall-clock time the DST gap skips
        const end = start + duration;
        if (end > intervalEnd) break;
        if (start < earliest || start >= rangeEnd) continue;
        if (overlapsAny(busy, start - before, end + after)) continue;
        if (overlapsAny(away, start, end)) continue;
        if (input.seats) {
          const seat = seatVerdict(input.seats, start, start - before, end + after);
          if (seat.free) slots.push({ start, end, seatsRemaining: seat.remaining });
          continue;
        }
        slots.push({ start, end });
      }
    }
  }
  // Split intervals come in rule order and could touch; keep the contract: sorted and unique.
  slots.sort((a, b) => a.start - b.start);
  return slots.filter((s, i) => i === 0 || s.start !== slots[i - 1]!.start);
}

/** Whether `start` is one of the slots the engine offers for this input (its range is ignored). */
export function isOfferedSlot(input: Omit<SlotInput, "range">, start: number): boolean {
  const hostZone = ZoneOffsets.of(input.host.timeZone);
  const date = dateOfDay(hostZone.dayOf(start));
  const slots = computeSlots({ ...input, range: { from: date, to: date, timeZone: input.host.timeZone } });
  return slots.some((s) => s.start === start);
}

/** The instant local midnight of `day` begins (the first instant of the day if midnight is skipped). */
function midnightOf(zone: ZoneOffsets, day: number): number {
  return zone.instantAtOrAfter(day * DAY_MINUTES);
}

export type SlotDto = { startTime: string; endTime: string; displayStart: string; displayEnd: string; seatsRemaining?: number };

/** Slots as the API shows them: UTC, and local times with the offset of `timeZone`; the seats left only when `showSeats`. */
export function toSlotDtos(slots: Slot[], timeZone: string, showSeats = true): SlotDto[] {
  const zone = ZoneOffsets.of(timeZone);
  return slots.map(({ start, end, seatsRemaining }) => ({
    startTime: formatLocal(start, 0, true),
    endTime: formatLocal(end, 0, true),
    displayStart: formatLocal(start, zone.offsetAt(start)),
    displayEnd: formatLocal(end, zone.offsetAt(end)),
    ...(seatsRemaining === undefined || !showSeats ? {} : { seatsRemaining }),
  }));
}

export { ZoneOffsets, dateOfDay, dayOfDate, formatLocal } from "./zone";
export type { LimitsInput } from "./limits";
export type { SeatsInput, SeatedStart } from "./seats";

/**
 * Until when computeSlots gives the same answer for a later `now` (the data unchanged): time
 * only removes slots, when `now + notice` passes the first one, and adds some when the host's
 * day turns and the booking window reaches a day further. Lets callers keep an answer exactly
 * as long as it is true.
 */
export function slotsValidUntil(input: Pick<SlotInput, "now" | "host">, slots: Slot[]): number {
  const zone = ZoneOffsets.of(input.host.timeZone);
  const nextHostMidnight = zone.instantAtOrAfter((zone.dayOf(input.now) + 1) * DAY_MINUTES);
  const first = slots[0];
  const firstDropsAt = first ? first.start - input.host.minNoticeHours * HOUR + 1 : Infinity;
  return Math.min(nextHostMidnight, firstDropsAt);
}
