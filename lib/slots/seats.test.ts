import { describe, expect, it } from "vitest";
import { computeSlots, type SlotInput } from "./index";
import { explainSlot } from "./explain";
import { seatedStarts } from "./seats";

// Seats in the engine (decisions §19): a start is offered while it has a free seat and overlaps no
// other seated start of the type; its own seats are not busy time for it.

const H = 3_600_000;
const M = 60_000;
const day = Date.parse("2030-01-07T00:00:00Z"); // a Monday

function input(seats: SlotInput["seats"], extra: Partial<SlotInput> = {}): SlotInput {
  return {
    now: day - 24 * H,
    host: { timeZone: "UTC", minNoticeHours: 0, maxAdvanceDays: 30 },
    weeklyRules: [{ dayOfWeek: 1, startMinute: 9 * 60, endMinute: 12 * 60 }],
    overrides: [],
    eventType: { durationMinutes: 60, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, slotIntervalMinutes: 30 },
    busy: [],
    ...(seats ? { seats } : {}),
    range: { from: "2030-01-07", to: "2030-01-07", timeZone: "UTC" },
    ...extra,
  };
}

const seat = (hour: number, minutes = 60, after = 0) => ({ start: day + hour * H, blocked: { start: day + hour * H, end: day + hour * H + (minutes + after) * M } });
const starts = (slots: { start: number }[]) => slots.map((s) => (s.start - day) / H);

describe("seated starts", () => {
  it("says how many seats are left, and drops a full start", () => {
    const three = seatedStarts([seat(9), seat(9), seat(9)]);
    expect(computeSlots(input({ max: 4, starts: three }))[0]).toEqual({ start: day + 9 * H, end: day + 10 * H, seatsRemaining: 1 });
    expect(starts(computeSlots(input({ max: 3, starts: three })))).toEqual([10, 10.5, 11]);
  });

  it("offers no start that overlaps another seated start (its buffers included)", () => {
    const booked = seatedStarts([seat(10, 60, 30)]);
    // 09:30 would overlap the 10:00 session, 10:30 and 11:00 its hour and its buffer; 10:00 itself has seats.
    expect(starts(computeSlots(input({ max: 5, starts: booked })))).toEqual([9, 10]);
    const explained = explainSlot({ ...input({ max: 5, starts: booked }), busy: [], isActive: true }, day + 10.5 * H);
    expect(explained.reasons.map((r) => r.code)).toEqual(["booking_conflict"]);
  });

  it("explains a full start as seats_full", () => {
    const full = seatedStarts([seat(9), seat(9)]);
    const explained = explainSlot({ ...input({ max: 2, starts: full }), busy: [], isActive: true }, day + 9 * H);
    expect(explained).toEqual({ bookable: false, reasons: [{ code: "seats_full", taken: 2, max: 2 }] });
  });

  it("an event type without seats lists no seat counts", () => {
    expect(computeSlots(input(undefined))[0]).toEqual({ start: day + 9 * H, end: day + 10 * H });
  });
});
