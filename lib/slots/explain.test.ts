import { describe, expect, it } from "vitest";
import { explainSlot, type ExplainInput, type Reason } from "./explain";

// One host in New York, Monday to Friday 09:00–12:00, 30-minute meetings every 30 minutes,
// a booking with buffers and a calendar event; `now` is Friday 2027-03-12 12:00 New York.
const base: ExplainInput = {
  now: Date.parse("2027-03-12T17:00:00Z"),
  host: { timeZone: "America/New_York", minNoticeHours: 4, maxAdvanceDays: 30 },
  weeklyRules: [1, 2, 3, 4, 5].map((dayOfWeek) => ({ dayOfWeek, startMinute: 9 * 60, endMinute: 12 * 60 })),
  overrides: [
    { date: "2027-03-17", intervals: [] },
    { date: "2027-03-14", intervals: [{ startMinute: 0, endMinute: 6 * 60 }] },
  ],
  eventType: { durationMinutes: 30, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, slotIntervalMinutes: null },
  busy: [
    { start: Date.parse("2027-03-16T14:00:00Z"), end: Date.parse("2027-03-16T14:45:00Z"), kind: "booking", bookingId: "bkg_1" },
    { start: Date.parse("2027-03-18T15:00:00Z"), end: Date.parse("2027-03-18T16:00:00Z"), kind: "calendar", calendarId: "cal_1", calendarName: "Work" },
  ],
  isActive: true,
};

const codes = (reasons: Reason[]) => reasons.map((r) => r.code);

describe("explainSlot: every reason, with its data", () => {
  it("a listed slot has no reasons", () => {
    expect(explainSlot(base, Date.parse("2027-03-15T13:00:00Z"))).toEqual({ bookable: true, reasons: [] }); // Mon 09:00 EDT
  });

  it.each([
    ["Mon 08:30, before the hours", "2027-03-15T12:30:00Z", ["outside_hours"]],
    ["Sat 10:00, no hours that day", "2027-03-20T14:00:00Z", ["outside_hours"]],
    ["Wed 10:00, closed by an override", "2027-03-17T14:00:00Z", ["closed_by_override"]],
    ["Mon 09:10, between two starts", "2027-03-15T13:10:00Z", ["not_on_grid"]],
    ["Fri 14:00 today, too soon and outside hours", "2027-03-12T19:00:00Z", ["outside_hours", "min_notice"]],
    ["Mon 09:00 two months on", "2027-05-17T13:00:00Z", ["beyond_window"]],
    ["Thu 11:00, over a calendar event", "2027-03-18T15:00:00Z", ["calendar_conflict"]],
  ])("%s", (_, start, expected) => {
    const { bookable, reasons } = explainSlot(base, Date.parse(start));
    expect(bookable).toBe(false);
    expect(codes(reasons)).toEqual(expected);
  });

  it("a start on the grid whose meeting would end after the hours is outside them", () => {
    const longer = { ...base, eventType: { ...base.eventType, durationMinutes: 45, slotIntervalMinutes: 30 } };
    expect(codes(explainSlot(longer, Date.parse("2027-03-15T15:30:00Z")).reasons)).toEqual(["outside_hours"]); // 11:30–12:15
    expect(explainSlot(longer, Date.parse("2027-03-15T15:00:00Z")).bookable).toBe(true); // 11:00–11:45
  });

  it("a booking's buffer counts: 10:30 collides with a booking that ends at 10:45", () => {
    const reasons = explainSlot(base, Date.parse("2027-03-16T14:30:00Z")).reasons;
    expect(reasons).toEqual([{ code: "booking_conflict", bookingId: "bkg_1", start: Date.parse("2027-03-16T14:00:00Z"), end: Date.parse("2027-03-16T14:45:00Z") }]);
    // With 15 minutes of buffer before, 11:00 touches 10:45 plus the buffer: a conflict too.
    const buffered = { ...base, eventType: { ...base.eventType, bufferBeforeMinutes: 16 } };
    expect(codes(explainSlot(buffered, Date.parse("2027-03-16T15:00:00Z")).reasons)).toEqual(["booking_conflict"]);
    expect(explainSlot({ ...buffered, eventType: { ...buffered.eventType, bufferBeforeMinutes: 15 } }, Date.parse("2027-03-16T15:00:00Z")).bookable).toBe(true);
  });

  it("not_on_grid names the nearest offered starts", () => {
    const [reason] = explainSlot(base, Date.parse("2027-03-15T13:10:00Z")).reasons;
    expect(reason).toEqual({ code: "not_on_grid", stepMinutes: 30, nearest: [Date.parse("2027-03-15T13:00:00Z"), Date.parse("2027-03-15T13:30:00Z")] });
  });

  it("min_notice and beyond_window carry their limits", () => {
    const soon = { ...base, weeklyRules: [...base.weeklyRules, { dayOfWeek: 5, startMinute: 12 * 60, endMinute: 18 * 60 }] };
    expect(explainSlot(soon, Date.parse("2027-03-12T18:00:00Z")).reasons).toEqual([
      { code: "min_notice", earliest: Date.parse("2027-03-12T21:00:00Z"), minNoticeHours: 4 },
    ]);
    expect(explainSlot(base, Date.parse("2027-05-17T13:00:00Z")).reasons).toEqual([{ code: "beyond_window", lastDate: "2027-04-11", maxAdvanceDays: 30 }]);
  });

  it("02:15 on the day clocks jump in New York does not exist: dst_gap, whichever offset it is written with", () => {
    // Sunday 2027-03-14 is open 00:00–06:00 by override, starts every 45 minutes: 02:15 is
    // skipped with the hour 02:00–03:00, and neither reading of it is another start.
    const every45 = { ...base, eventType: { ...base.eventType, slotIntervalMinutes: 45 } };
    for (const start of ["2027-03-14T02:15:00-05:00", "2027-03-14T02:15:00-04:00"]) {
      expect(explainSlot(every45, Date.parse(start)).reasons).toEqual([{ code: "dst_gap", date: "2027-03-14", wallMinute: 135 }]);
    }
    expect(explainSlot(every45, Date.parse("2027-03-14T03:00:00-04:00")).bookable).toBe(true);
  });

  it("an inactive event type says so first", () => {
    expect(codes(explainSlot({ ...base, isActive: false }, Date.parse("2027-03-15T13:00:00Z")).reasons)).toEqual(["event_type_inactive"]);
  });
});
