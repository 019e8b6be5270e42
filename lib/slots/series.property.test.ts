import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { computeSlots, isOfferedSlot, type SlotInput } from "./index";
import { seriesFree, seriesStarts } from "./series";
import { arbSeatedInput } from "./slot-input.arbitrary";

// Properties of series and seats over random hosts (decisions §19), checked against luxon's wall
// clock and against the engine's own single-start answer, never against series.ts itself.

const MINUTE = 60_000;
const RUNS = 200;

describe("series over random hosts", () => {
  it("an accepted series: booked, no occurrence is free; taken out again, every occurrence is an offered slot at the first one's wall-clock time", () => {
    let accepted = 0;
    fc.assert(
      fc.property(arbSeatedInput, fc.nat(), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 2, max: 6 }), (input, pick, everyWeeks, count) => {
        const slots = computeSlots(input);
        if (slots.length === 0) return;
        const first = slots[pick % slots.length]!.start;
        const zone = input.host.timeZone;
        const starts = seriesStarts(first, zone, everyWeeks, count);
        expect(starts[0]).toBe(first);
        for (let k = 1; k < starts.length; k++) expect(starts[k]! - starts[k - 1]!).toBeGreaterThanOrEqual(7 * everyWeeks * 1440 * MINUTE - 3 * 3_600_000);
        const free = seriesFree(input, starts);
        // The first start is offered now, so it is free as the first occurrence of any series.
        expect(free[0]).toBe(true);
        if (!free.every(Boolean)) return;
        accepted++;

        // Each occurrence is at the first one's local time (an offered start is never in a gap).
        const wall = (ms: number) => DateTime.fromMillis(ms, { zone }).toFormat("HH:mm");
        for (const s of starts) expect(wall(s)).toBe(wall(first));

        // Booked into the host's time (and counted toward the limits, seats taken as a guest would), no occurrence is free.
        const { durationMinutes, bufferBeforeMinutes, bufferAfterMinutes } = input.eventType;
        const blocked = starts.map((s) => ({ start: s - bufferBeforeMinutes * MINUTE, end: s + (durationMinutes + bufferAfterMinutes) * MINUTE }));
        const booked: Omit<SlotInput, "range"> = input.seats
          ? { ...input, seats: { max: input.seats.max, starts: [...input.seats.starts, ...starts.map((s, k) => ({ start: s, blocked: blocked[k]!, taken: input.seats!.max }))] } }
          : { ...input, busy: [...input.busy, ...blocked], ...(input.limits ? { limits: { ...input.limits, booked: [...input.limits.booked, ...starts] } } : {}) };
        // (With seats, an occurrence already holding seats is free again only while one is left: filled here.)
        if (!input.seats || starts.every((s) => !input.seats!.starts.some((o) => o.start === s))) expect(seriesFree(booked, starts)).toEqual(starts.map(() => false));

        // Taken out again (the series itself ignored): each occurrence is an offered slot, the later
        // ones under everything but the notice and the window.
        const later = { ...input, host: { ...input.host, minNoticeHours: 0, maxAdvanceDays: 1_000_000 } };
        starts.forEach((s, k) => expect(isOfferedSlot(k === 0 ? input : later, s)).toBe(true));
      }),
      { numRuns: RUNS },
    );
    // The property is not vacuous: a good share of the random series are accepted.
    expect(accepted).toBeGreaterThan(RUNS / 10);
  });
});

describe("seats over random hosts", () => {
  it("a seated start is offered with max − taken seats left, never when full, never overlapping another seated start", () => {
    fc.assert(
      fc.property(arbSeatedInput, (input) => {
        const seats = input.seats;
        const slots = computeSlots(input);
        const unseated = new Set(computeSlots({ ...input, seats: undefined }).map((s) => s.start));
        const before = input.eventType.bufferBeforeMinutes * MINUTE;
        const after = input.eventType.bufferAfterMinutes * MINUTE;
        for (const slot of slots) {
          // Seats only ever take starts away.
          expect(unseated.has(slot.start)).toBe(true);
          if (!seats) {
            expect(slot.seatsRemaining).toBeUndefined();
            continue;
          }
          const own = seats.starts.find((s) => s.start === slot.start);
          expect(slot.seatsRemaining).toBe(seats.max - (own?.taken ?? 0));
          expect(slot.seatsRemaining).toBeGreaterThan(0);
          const from = slot.start - before;
          const to = slot.end + after;
          expect(seats.starts.some((s) => s.start !== slot.start && s.blocked.start < to && from < s.blocked.end)).toBe(false);
        }
        // And every start of the seatless list that the seats allow is still offered.
        if (seats) {
          const offered = new Set(slots.map((s) => s.start));
          for (const start of unseated) {
            const from = start - before;
            const to = start + input.eventType.durationMinutes * MINUTE + after;
            const overlap = seats.starts.some((s) => s.start !== start && s.blocked.start < to && from < s.blocked.end);
            const full = (seats.starts.find((s) => s.start === start)?.taken ?? 0) >= seats.max;
            expect(offered.has(start)).toBe(!overlap && !full);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });
});
