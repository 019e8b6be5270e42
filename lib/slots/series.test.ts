import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { computeSlots, isOfferedSlot, type SlotInput } from "./index";
import { seriesFree, seriesStarts } from "./series";
import { arbInput } from "./slot-input.arbitrary";

// A series keeps its first start's wall-clock time in the host's zone (decisions §19).

const at = (iso: string, zone: string) => DateTime.fromISO(iso, { zone }).toMillis();
const local = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).toFormat("yyyy-MM-dd HH:mm ZZ");

describe("seriesStarts", () => {
  it.each([
    // New York: spring forward on 8 March 2026, fall back on 1 November 2026.
    ["America/New_York", "2026-02-26T10:00", 1, ["2026-02-26 10:00 -05:00", "2026-03-05 10:00 -05:00", "2026-03-12 10:00 -04:00", "2026-03-19 10:00 -04:00"]],
    ["America/New_York", "2026-10-22T10:00", 1, ["2026-10-22 10:00 -04:00", "2026-10-29 10:00 -04:00", "2026-11-05 10:00 -05:00", "2026-11-12 10:00 -05:00"]],
    // Berlin: 29 March and 25 October 2026; every two weeks.
    ["Europe/Berlin", "2026-03-17T10:00", 2, ["2026-03-17 10:00 +01:00", "2026-03-31 10:00 +02:00", "2026-04-14 10:00 +02:00", "2026-04-28 10:00 +02:00"]],
    ["Europe/Berlin", "2026-10-14T10:00", 2, ["2026-10-14 10:00 +02:00", "2026-10-28 10:00 +01:00", "2026-11-11 10:00 +01:00", "2026-11-25 10:00 +01:00"]],
  ])("%s from %s every %i week(s) keeps 10:00 local", (zone, first, weeks, expected) => {
    const starts = seriesStarts(at(first, zone), zone, weeks, 4);
    expect(starts.map((s) => local(s, zone))).toEqual(expected);
  });

  it("an occurrence in a spring-forward gap gives the instant the clocks jump to, and is never offered", () => {
    const zone = "America/New_York";
    const starts = seriesStarts(at("2026-03-01T02:30", zone), zone, 1, 2);
    expect(local(starts[1]!, zone)).toBe("2026-03-08 03:00 -04:00");
    const input: Omit<SlotInput, "range"> = {
      now: at("2026-02-20T00:00", zone),
      host: { timeZone: zone, minNoticeHours: 0, maxAdvanceDays: 60 },
      weeklyRules: [{ dayOfWeek: 0, startMinute: 150, endMinute: 240 }],
      overrides: [],
      eventType: { durationMinutes: 30, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, slotIntervalMinutes: null },
      busy: [],
    };
    expect(seriesFree(input, starts)).toEqual([true, false]);
  });
});

describe("seriesFree", () => {
  const zone = "Europe/Berlin";
  const base: Omit<SlotInput, "range"> = {
    now: at("2026-03-01T08:00", zone),
    host: { timeZone: zone, minNoticeHours: 24, maxAdvanceDays: 14 },
    weeklyRules: [1, 2, 3, 4, 5].map((dayOfWeek) => ({ dayOfWeek, startMinute: 540, endMinute: 720 })),
    overrides: [],
    eventType: { durationMinutes: 60, bufferBeforeMinutes: 0, bufferAfterMinutes: 15, slotIntervalMinutes: null },
    busy: [],
  };
  const starts = seriesStarts(at("2026-03-03T10:00", zone), zone, 1, 5);

  it("binds the notice and the window to the first occurrence only", () => {
    expect(seriesFree(base, starts)).toEqual([true, true, true, true, true]);
    expect(seriesFree({ ...base, now: at("2026-03-02T12:00", zone) }, starts)[0]).toBe(false);
  });

  it("finds each taken occurrence: a booking (its buffer too), a closed date, a full week", () => {
    const busy = [{ start: at("2026-03-17T11:00", zone) - 10 * 60_000, end: at("2026-03-17T11:30", zone) }];
    const overrides = [{ date: "2026-03-24", intervals: [] }];
    const limits = { perWeek: 1, booked: [at("2026-03-12T09:00", zone)] };
    expect(seriesFree({ ...base, busy, overrides, limits }, starts)).toEqual([true, false, false, false, true]);
  });

  it("checks each occurrence alone as it would with the rest of the series booked (property)", () => {
    fc.assert(
      fc.property(arbInput, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 2, max: 6 }), (input, everyWeeks, count) => {
        const [first] = computeSlots(input);
        if (!first) return;
        const engine: Omit<SlotInput, "range"> = { ...input };
        delete (engine as Partial<SlotInput>).range;
        const series = seriesStarts(first.start, input.host.timeZone, everyWeeks, count);
        const free = seriesFree(engine, series);
        if (!free.every(Boolean)) return;
        const minute = 60_000;
        const { durationMinutes, bufferBeforeMinutes, bufferAfterMinutes } = input.eventType;
        for (const [k, start] of series.entries()) {
          // The series booked but this occurrence: its blocked ranges busy, its starts counted by the limits.
          const others = series.filter((_, j) => j !== k);
          const booked: Omit<SlotInput, "range"> = {
            ...engine,
            host: k === 0 ? engine.host : { ...engine.host, minNoticeHours: 0, maxAdvanceDays: 1_000_000 },
            busy: [...engine.busy, ...others.map((s) => ({ start: s - bufferBeforeMinutes * minute, end: s + (durationMinutes + bufferAfterMinutes) * minute }))],
            ...(engine.limits ? { limits: { ...engine.limits, booked: [...engine.limits.booked, ...others] } } : {}),
          };
          expect(isOfferedSlot(booked, start), `occurrence ${k} of ${series.map((s) => new Date(s).toISOString()).join(", ")}`).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
