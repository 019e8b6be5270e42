import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeSlots, slotsValidUntil, type SlotInput } from "./index";
import { arbInput } from "./slot-input.arbitrary";
import { combineHostSlots, computeTeamSlotsUntil, type SchedulingType } from "./team";

// A personal event type is a team of one (issue 38): the team function with one host must be
// the engine itself. Its fast path is compared with the engine, and with what the general path
// (each host's slots combined) gives one host, which is what a team of one was answered before.

const RUNS = 300;
const TYPES: SchedulingType[] = ["round_robin", "collective"];

/** The engine alone: what a personal event type's list was made of. */
function engine(input: SlotInput) {
  const slots = computeSlots(input);
  return { slots, validUntil: slotsValidUntil(input, slots) };
}

/** The general path for one host: the union or intersection of one list, without the host ids. */
function combinedOfOne(type: SchedulingType, input: SlotInput) {
  const slots = computeSlots(input);
  const combined = combineHostSlots(type, [{ hostId: "h", slots }]).map(({ start, end }) => ({ start, end }));
  return { slots: combined, validUntil: slotsValidUntil(input, slots) };
}

describe("a team of one is the engine", () => {
  it("gives computeSlots and slotsValidUntil exactly, for random hosts, guests and dates", () => {
    fc.assert(
      fc.property(arbInput, fc.constantFrom(...TYPES), (input, type) => {
        const one = computeTeamSlotsUntil(type, [{ hostId: "h", input }]);
        expect(one).toEqual(engine(input));
        expect(one).toEqual(combinedOfOne(type, input));
      }),
      { numRuns: RUNS },
    );
  });

  // The weeks around clock changes, open around the clock on a 15-minute grid: the skipped and
  // repeated hours are inside every week's hours. Kolkata (no DST) and UTC for contrast.
  const WEEKS: [zone: string, from: string, guest: string][] = [
    ["America/New_York", "2027-03-11", "Europe/Berlin"], // spring forward 14 March
    ["America/New_York", "2026-10-29", "UTC"], // fall back 1 November
    ["Europe/Berlin", "2027-03-25", "America/New_York"], // 28 March
    ["Europe/Berlin", "2027-10-28", "Asia/Kolkata"], // 31 October
    ["Australia/Lord_Howe", "2027-04-01", "Australia/Sydney"], // half an hour back, 4 April
    ["Pacific/Chatham", "2027-09-23", "Pacific/Auckland"], // 45-minute zone, 26 September
    ["Asia/Kolkata", "2027-03-25", "Europe/London"],
    ["UTC", "2027-03-25", "Pacific/Chatham"],
  ];
  const week = (zone: string, from: string, guest: string): SlotInput => {
    const to = new Date(Date.parse(`${from}T00:00:00Z`) + 6 * 86_400_000).toISOString().slice(0, 10);
    return {
      now: Date.parse(`${from}T00:00:00Z`) - 86_400_000,
      host: { timeZone: zone, minNoticeHours: 2, maxAdvanceDays: 30 },
      weeklyRules: [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startMinute: 0, endMinute: 1440 })),
      overrides: [],
      eventType: { durationMinutes: 45, bufferBeforeMinutes: 10, bufferAfterMinutes: 5, slotIntervalMinutes: 15 },
      busy: [{ start: Date.parse(`${from}T10:00:00Z`), end: Date.parse(`${from}T13:30:00Z`) }],
      range: { from, to, timeZone: guest },
    };
  };

  it.each(WEEKS)("in %s, the week from %s, for a guest in %s", (zone, from, guest) => {
    const input = week(zone, from, guest);
    for (const type of TYPES) {
      const one = computeTeamSlotsUntil(type, [{ hostId: "h", input }]);
      expect(one.slots.length).toBeGreaterThan(500);
      expect(one).toEqual(engine(input));
      expect(one).toEqual(combinedOfOne(type, input));
      // The engine's own slots: no list of hosts rides along for one host.
      expect(Object.keys(one.slots[0]!)).toEqual(["start", "end"]);
    }
  });
});
