import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { explainSlot, type SourcedInterval } from "./explain";
import { computeSlots, isOfferedSlot, slotsValidUntil, type LocalInterval, type Slot, type SlotInput, type TimeOff } from "./index";
import { arbInput, arbSeatedInput, dayNumber, isoDate } from "./slot-input.arbitrary";

// Properties of the engine over random hosts, guests and dates, checked against facts recomputed
// here with luxon (local date and time of an instant), not with the engine's own zone code.

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const RUNS = 200;

// ---- Independent wall-clock arithmetic, from luxon's local fields of an instant ----

/** Local wall clock of an instant as "minutes since 1970-01-01 00:00 local". */
function wallOf(ms: number, zone: string): number {
  const t = DateTime.fromMillis(ms, { zone });
  return dayNumber(t.toISODate()!) * 1440 + t.hour * 60 + t.minute;
}

/** luxon's offset of `zone` at `ms`, in minutes; each instant and zone looked up once (luxon asks Intl every time). */
const offsetCache = new Map<string, number>();
function offsetAt(ms: number, zone: string): number {
  const key = `${zone} ${ms}`;
  let offset = offsetCache.get(key);
  if (offset === undefined) offsetCache.set(key, (offset = DateTime.fromMillis(ms, { zone }).offset));
  return offset;
}

/** Every instant (whole minutes) whose local wall clock is `wall`, earliest first. */
function instantsOf(wall: number, zone: string): number[] {
  // Any zone's offset is within ±14h, so the instant lies in [wall − 14h, wall + 14h]; local time
  // only jumps near a transition (months apart), so check the candidates the offsets seen every
  // 5 hours across that span give. The probes start on the hour: every wall time of an hour
  // shares them.
  const hour = Math.floor((wall * MINUTE) / HOUR) * HOUR;
  const offsets = new Set<number>();
  for (let h = -15; h <= 15; h += 5) offsets.add(offsetAt(hour + h * HOUR, zone));
  return [...offsets].map((o) => wall * MINUTE - o * MINUTE).filter((t) => wallOf(t, zone) === wall).sort((a, b) => a - b);
}

/** First instant the wall clock reads `wall` or later (the end of a gap when `wall` is skipped). */
function instantAtOrAfter(wall: number, zone: string): number {
  const exact = instantsOf(wall, zone)[0];
  if (exact !== undefined) return exact;
  let lo = (wall - 15 * 60) * MINUTE; // reads before wall
  let hi = (wall + 15 * 60) * MINUTE; // reads after wall
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
    if (wallOf(mid, zone) < wall) lo = mid;
    else hi = mid;
  }
  return hi;
}

function hoursOn(input: SlotInput, date: string): LocalInterval[] {
  const override = input.overrides.find((o) => o.date === date);
  if (override) return override.intervals;
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return input.weeklyRules.filter((r) => r.dayOfWeek === weekday);
}

const overlaps = (busy: SlotInput["busy"], start: number, end: number) => busy.some((b) => b.start < end && start < b.end);
const localDate = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).toISODate()!;

/** Whether the start's local day or ISO week (luxon's weekYear and weekNumber) already holds the limit. */
function limitFull(input: SlotInput, start: number): boolean {
  const limits = input.limits;
  if (!limits) return false;
  const zone = input.host.timeZone;
  const at = DateTime.fromMillis(start, { zone });
  const sameDay = limits.booked.filter((b) => DateTime.fromMillis(b, { zone }).toISODate() === at.toISODate()).length;
  const sameWeek = limits.booked.filter((b) => {
    const t = DateTime.fromMillis(b, { zone });
    return t.weekYear === at.weekYear && t.weekNumber === at.weekNumber;
  }).length;
  return (limits.perDay !== undefined && sameDay >= limits.perDay) || (limits.perWeek !== undefined && sameWeek >= limits.perWeek);
}

const firstAwayDate = (t: TimeOff) => (t.kind === "holiday" ? t.date : t.startDate);
const lastAwayDate = (t: TimeOff) => (t.kind === "holiday" ? t.date : t.endDate);

/** The slots §7 describes, by brute force over every host day the range could touch. */
function reference(input: SlotInput): Slot[] {
  const zone = input.host.timeZone;
  const { durationMinutes, slotIntervalMinutes, bufferBeforeMinutes, bufferAfterMinutes } = input.eventType;
  const step = slotIntervalMinutes ?? durationMinutes;
  const lastDay = dayNumber(localDate(input.now, zone)) + input.host.maxAdvanceDays;
  const out = new Map<number, Slot>();
  for (let day = dayNumber(input.range.from) - 2; day <= Math.min(dayNumber(input.range.to) + 2, lastDay); day++) {
    for (const h of hoursOn(input, isoDate(day))) {
      const intervalEnd = instantAtOrAfter(day * 1440 + h.endMinute, zone);
      for (let m = h.startMinute; m < h.endMinute; m += step) {
        const start = instantsOf(day * 1440 + m, zone)[0];
        if (start === undefined) continue; // skipped by a DST gap
        const end = start + durationMinutes * MINUTE;
        if (end > intervalEnd || start < input.now + input.host.minNoticeHours * HOUR) continue;
        const guestDate = localDate(start, input.range.timeZone);
        if (guestDate < input.range.from || guestDate > input.range.to) continue;
        if (overlaps(input.busy, start - bufferBeforeMinutes * MINUTE, end + bufferAfterMinutes * MINUTE)) continue;
        if (limitFull(input, start)) continue;
        // A day off: the meeting itself may not touch one of the host's local days away.
        if ((input.timeOff ?? []).some((t) => localDate(start, zone) <= lastAwayDate(t) && localDate(end - 1, zone) >= firstAwayDate(t))) continue;
        out.set(start, { start, end });
      }
    }
  }
  return [...out.values()].sort((a, b) => a.start - b.start);
}

describe("slot engine properties", () => {
  it("every slot satisfies the rules of §7", () => {
    fc.assert(
      fc.property(arbInput, (input) => {
        const slots = computeSlots(input);
        const zone = input.host.timeZone;
        const { durationMinutes: duration, bufferBeforeMinutes: before, bufferAfterMinutes: after } = input.eventType;
        const step = input.eventType.slotIntervalMinutes ?? duration;
        const today = localDate(input.now, zone);
        const lastDate = isoDate(dayNumber(today) + input.host.maxAdvanceDays);
        slots.forEach((s, i) => {
          if (i > 0) expect(s.start).toBeGreaterThan(slots[i - 1]!.start); // sorted, unique
          expect(s.end - s.start).toBe(duration * MINUTE);
          expect(s.start).toBeGreaterThanOrEqual(input.now + input.host.minNoticeHours * HOUR);
          const local = DateTime.fromMillis(s.start, { zone });
          const date = local.toISODate()!;
          expect(date <= lastDate).toBe(true);
          const guestDate = localDate(s.start, input.range.timeZone);
          expect(guestDate >= input.range.from && guestDate <= input.range.to).toBe(true);
          expect(overlaps(input.busy, s.start - before * MINUTE, s.end + after * MINUTE)).toBe(false);
          // Inside one interval of its local day, on that interval's step grid.
          const minute = local.hour * 60 + local.minute;
          const inside = hoursOn(input, date).some((h) => {
            const endInstant = instantAtOrAfter(dayNumber(date) * 1440 + h.endMinute, zone);
            return minute >= h.startMinute && (minute - h.startMinute) % step === 0 && s.end <= endInstant;
          });
          expect(inside).toBe(true);
        });
      }),
      { numRuns: RUNS },
    );
  });

  it("offers exactly the slots of a brute-force reference", () => {
    fc.assert(
      fc.property(arbInput, (input) => {
        expect(computeSlots(input)).toEqual(reference(input));
      }),
      { numRuns: RUNS },
    );
  });

  it("isOfferedSlot accepts every listed slot and rejects starts a minute off", () => {
    fc.assert(
      fc.property(arbInput, (input) => {
        const slots = computeSlots(input);
        const zone = input.host.timeZone;
        for (const s of [slots[0], slots[slots.length >> 1], slots.at(-1)]) {
          if (!s) continue;
          expect(isOfferedSlot(input, s.start)).toBe(true);
          // A minute later is offered only if the reference, over that start's host date, says so.
          const next = s.start + MINUTE;
          const date = localDate(next, zone);
          const expected = reference({ ...input, range: { from: date, to: date, timeZone: zone } }).some((r) => r.start === next);
          expect(isOfferedSlot(input, next)).toBe(expected);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("a wider guest range lists a superset, and splitting it partitions the slots", () => {
    fc.assert(
      fc.property(arbInput, fc.integer({ min: 0, max: 31 }), (input, cut) => {
        const { from, to } = input.range;
        const mid = isoDate(Math.min(dayNumber(from) + cut, dayNumber(to)));
        const whole = computeSlots(input);
        const left = computeSlots({ ...input, range: { ...input.range, to: mid } });
        const right = mid < to ? computeSlots({ ...input, range: { ...input.range, from: isoDate(dayNumber(mid) + 1) } }) : [];
        expect([...left, ...right]).toEqual(whole);
      }),
      { numRuns: RUNS },
    );
  });

  it("slotsValidUntil: any later `now` before it gives the same slots; at it they differ (or the host's day turned)", () => {
    fc.assert(
      fc.property(arbInput, fc.double({ min: 0, max: 1, noNaN: true }), (input, fraction) => {
        const slots = computeSlots(input);
        const until = slotsValidUntil(input, slots);
        expect(until).toBeGreaterThan(input.now);
        const span = Math.min(until - input.now, 3 * DAY);
        const later = input.now + Math.floor(fraction * (span - 1));
        expect(computeSlots({ ...input, now: later })).toEqual(slots);
        if (slots.length > 0 && until === slots[0]!.start - input.host.minNoticeHours * HOUR + 1) {
          expect(computeSlots({ ...input, now: until })[0]?.start).not.toBe(slots[0]!.start);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("explainSlot calls a start bookable exactly when the engine offers it, and names every conflict (seated types too)", () => {
    fc.assert(
      fc.property(arbSeatedInput, fc.array(fc.integer({ min: -2 * 288, max: 34 * 288 }), { maxLength: 6 }), (input, offsets) => {
        const busy: SourcedInterval[] = input.busy.map((b, i) =>
          i % 2 === 0 ? { ...b, kind: "booking", bookingId: `bkg_${i}` } : { ...b, kind: "calendar", calendarId: `cal_${i}`, calendarName: `Calendar ${i}` },
        );
        const explainInput = { ...input, busy, isActive: true };
        const slots = computeSlots(input);
        const rangeStart = Date.parse(`${input.range.from}T00:00:00Z`);
        // Offered starts, a minute off them, busy edges, and starts on a 5-minute grid anywhere.
        const starts = [
          ...[slots[0], slots.at(-1)].flatMap((s) => (s ? [s.start, s.start + MINUTE, s.start - 5 * MINUTE] : [])),
          // Starts whose buffered span exactly touches a busy range, on either side.
          ...input.busy.flatMap((b) => [
            b.start - (input.eventType.durationMinutes + input.eventType.bufferAfterMinutes) * MINUTE,
            b.end + input.eventType.bufferBeforeMinutes * MINUTE,
          ]),
          ...offsets.map((o) => rangeStart + o * 5 * MINUTE),
          // Starts holding seats (full or not), and a step either side of them.
          ...(input.seats?.starts ?? []).flatMap((s) => [s.start, s.start - 15 * MINUTE, s.start + 30 * MINUTE]),
          // The first and last minute of the host's hours, where a long meeting stops fitting.
          ...[0, 1, 2].flatMap((d) => {
            const day = dayNumber(input.range.from) + d;
            return hoursOn(input, isoDate(day)).flatMap((h) => [
              instantAtOrAfter(day * 1440 + h.startMinute, input.host.timeZone),
              instantAtOrAfter(day * 1440 + h.endMinute, input.host.timeZone) - input.eventType.durationMinutes * MINUTE,
            ]);
          }),
        ];
        for (const start of starts) {
          const { bookable, reasons } = explainSlot(explainInput, start);
          expect(bookable, JSON.stringify(reasons)).toBe(isOfferedSlot(input, start));
          expect(bookable).toBe(reasons.length === 0);
          const end = start + input.eventType.durationMinutes * MINUTE;
          const from = start - input.eventType.bufferBeforeMinutes * MINUTE;
          const to = end + input.eventType.bufferAfterMinutes * MINUTE;
          const conflicts = busy.filter((b) => b.start < to && from < b.end);
          // Another seated start overlapping this one is named once more, as the booking it is.
          const seatOverlap = (input.seats?.starts ?? []).some((s) => s.start !== start && s.blocked.start < to && from < s.blocked.end) ? 1 : 0;
          expect(reasons.filter((r) => r.code === "booking_conflict" || r.code === "calendar_conflict")).toHaveLength(conflicts.length + seatOverlap);
          const own = input.seats?.starts.find((s) => s.start === start);
          const full = !seatOverlap && own !== undefined && own.taken >= input.seats!.max;
          expect(reasons.some((r) => r.code === "seats_full")).toBe(full);
        }
        // At the notice edge: a slot half a minute too soon, and one exactly on time.
        for (const slot of slots.slice(0, 2)) {
          for (const late of [30_000, 0]) {
            const now = slot.start - input.host.minNoticeHours * HOUR + late;
            const shifted = { ...explainInput, now };
            expect(explainSlot(shifted, slot.start).bookable).toBe(isOfferedSlot({ ...input, now }, slot.start));
          }
        }
        // At the window's edge: the last slot's day just inside the window, and a day beyond it.
        const last = slots.at(-1);
        if (last) {
          const days = dayNumber(localDate(last.start, input.host.timeZone)) - dayNumber(localDate(input.now, input.host.timeZone));
          for (const maxAdvanceDays of [days, days - 1].filter((d) => d >= 0)) {
            const host = { ...input.host, maxAdvanceDays };
            expect(explainSlot({ ...explainInput, host }, last.start).bookable).toBe(isOfferedSlot({ ...input, host }, last.start));
          }
        }
        expect(explainSlot({ ...explainInput, isActive: false }, slots[0]?.start ?? rangeStart).reasons[0]).toEqual({ code: "event_type_inactive" });
      }),
      { numRuns: RUNS },
    );
  });
});
