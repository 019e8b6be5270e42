import { describe, expect, it } from "vitest";
import { explainSlot } from "./explain";
import { computeSlots, type SlotInput, type WeeklyRule } from "./index";
import { computeTeamSlots } from "./team";
import { timeOffOf } from "./time-off";

// Days off (decisions §21) worked out by hand from the zones' offsets:
//   Europe/Berlin      CEST +02:00 until Sunday 2026-10-25 03:00, then CET +01:00 (a 25-hour day)
//   America/New_York   EST -05:00 until Sunday 2026-03-08 02:00, then EDT -04:00 (a 23-hour day)
//   Pacific/Auckland   NZDT +13:00 all December 2026
//   Pacific/Honolulu   HST -10:00 all year: 23 hours behind Auckland, so a guest there sees a host's
//                      Monday as their Sunday, across the date line.

const hm = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
const everyDay = (from: string, to: string, days = [0, 1, 2, 3, 4, 5, 6]): WeeklyRule[] => days.map((dayOfWeek) => ({ dayOfWeek, startMinute: hm(from), endMinute: hm(to) }));
const WEEKDAYS = [1, 2, 3, 4, 5];

function host(timeZone: string, rules: WeeklyRule[], extra: Partial<SlotInput> = {}): SlotInput {
  return {
    now: Date.parse("2026-01-01T00:00:00Z"),
    host: { timeZone, minNoticeHours: 0, maxAdvanceDays: 730 },
    weeklyRules: rules,
    overrides: [],
    eventType: { durationMinutes: 60, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, slotIntervalMinutes: null },
    busy: [],
    range: { from: "2026-01-01", to: "2026-01-01", timeZone: "UTC" },
    ...extra,
  };
}
const guest = (input: SlotInput, from: string, to: string, timeZone: string): SlotInput => ({ ...input, range: { from, to, timeZone } });
const utc = (slots: { start: number }[]) => slots.map((s) => new Date(s.start).toISOString().slice(0, 16));
const away = (startDate: string, endDate: string) => [{ id: `ooo_${startDate}`, startDate, endDate }];

describe("days off: the instants of the host's local days", () => {
  it("a Berlin weekend away across the clocks going back is 73 hours, from Saturday's midnight to Tuesday's", () => {
    const [off] = timeOffOf("Europe/Berlin", away("2026-10-24", "2026-10-26"), []);
    expect(new Date(off!.start).toISOString()).toBe("2026-10-23T22:00:00.000Z");
    expect(new Date(off!.end).toISOString()).toBe("2026-10-26T23:00:00.000Z");
    expect((off!.end - off!.start) / 3_600_000).toBe(73);
  });

  it("a New York Sunday the clocks go forward is 23 hours; holidays worked anyway are left out", () => {
    const off = timeOffOf("America/New_York", [], [{ date: "2026-03-08", name: "A" }, { date: "2026-03-09", name: "B" }], ["2026-03-09"]);
    expect(off).toHaveLength(1);
    expect(off[0]).toMatchObject({ kind: "holiday", date: "2026-03-08", name: "A" });
    expect((off[0]!.end - off[0]!.start) / 3_600_000).toBe(23);
  });
});

describe("slots on days off", () => {
  it("Berlin, away Saturday to Monday across the DST change: Friday and Tuesday keep their hours, nothing between", () => {
    const input = host("Europe/Berlin", everyDay("09:00", "17:00"), { timeOff: timeOffOf("Europe/Berlin", away("2026-10-24", "2026-10-26"), []) });
    const slots = utc(computeSlots(guest(input, "2026-10-23", "2026-10-27", "UTC")));
    // Friday 09–17 CEST = 07–15Z, Tuesday 09–17 CET = 08–16Z: eight hour-long meetings each.
    expect(slots.filter((s) => s.startsWith("2026-10-23"))).toEqual(["07", "08", "09", "10", "11", "12", "13", "14"].map((h) => `2026-10-23T${h}:00`));
    expect(slots.filter((s) => s.startsWith("2026-10-27"))).toEqual(["08", "09", "10", "11", "12", "13", "14", "15"].map((h) => `2026-10-27T${h}:00`));
    expect(slots).toHaveLength(16);
  });

  it("around the clock on either side of a 25-hour Sunday off (Berlin) and a 23-hour one (New York): the last hour before and the first after stay", () => {
    const berlin = host("Europe/Berlin", everyDay("00:00", "24:00"), { timeOff: timeOffOf("Europe/Berlin", away("2026-10-25", "2026-10-25"), []) });
    const b = utc(computeSlots(guest(berlin, "2026-10-24", "2026-10-26", "UTC")));
    expect(b).toContain("2026-10-24T21:00"); // Saturday 23:00 CEST, ending at Sunday's midnight
    expect(b).not.toContain("2026-10-24T22:00"); // Sunday 00:00 CEST
    expect(b).not.toContain("2026-10-25T22:00"); // Sunday 23:00 CET
    expect(b).toContain("2026-10-25T23:00"); // Monday 00:00 CET
    const ny = host("America/New_York", everyDay("00:00", "24:00"), { timeOff: timeOffOf("America/New_York", away("2026-03-08", "2026-03-08"), []) });
    const n = utc(computeSlots(guest(ny, "2026-03-07", "2026-03-09", "UTC")));
    expect(n).toContain("2026-03-08T04:00"); // Saturday 23:00 EST
    expect(n).not.toContain("2026-03-08T05:00"); // Sunday 00:00 EST
    expect(n).not.toContain("2026-03-09T03:00"); // Sunday 23:00 EDT
    expect(n).toContain("2026-03-09T04:00"); // Monday 00:00 EDT
  });

  it("across the date line: an Auckland host away on Monday is away on a Honolulu guest's Sunday", () => {
    const base = host("Pacific/Auckland", everyDay("09:00", "17:00", WEEKDAYS));
    // Without time off, the guest's Sunday 6 December holds the host's Monday: 10:00–18:00 HST.
    expect(utc(computeSlots(guest(base, "2026-12-06", "2026-12-06", "Pacific/Honolulu")))).toHaveLength(8);
    const input = { ...base, timeOff: timeOffOf("Pacific/Auckland", away("2026-12-07", "2026-12-07"), []) };
    expect(computeSlots(guest(input, "2026-12-06", "2026-12-06", "Pacific/Honolulu"))).toEqual([]);
    // The guest's Monday is the host's Tuesday, which is open: 09:00 NZDT = Monday 20:00Z = 10:00 HST.
    const monday = utc(computeSlots(guest(input, "2026-12-07", "2026-12-07", "Pacific/Honolulu")));
    expect(monday[0]).toBe("2026-12-07T20:00");
    expect(monday).toHaveLength(8);
  });

  it("across the date line: a New Zealand holiday is closed, its substitute Monday open when worked anyway, and explain names it", () => {
    const holidays = [
      { date: "2026-12-25", name: "Christmas Day" },
      { date: "2026-12-28", name: "Boxing Day (substitute)" },
    ];
    const input = host("Pacific/Auckland", everyDay("09:00", "17:00", WEEKDAYS), { timeOff: timeOffOf("Pacific/Auckland", [], holidays, ["2026-12-28"]) });
    // The host's Friday 25th is the guest's Thursday 24th; the host's Monday 28th the guest's Sunday 27th.
    expect(computeSlots(guest(input, "2026-12-24", "2026-12-24", "Pacific/Honolulu"))).toEqual([]);
    expect(computeSlots(guest(input, "2026-12-27", "2026-12-27", "Pacific/Honolulu"))).toHaveLength(8);
    const christmas = Date.parse("2026-12-24T20:00:00Z"); // 09:00 NZDT on the 25th
    expect(explainSlot({ ...input, busy: [], isActive: true }, christmas)).toEqual({ bookable: false, reasons: [{ code: "holiday", date: "2026-12-25", name: "Christmas Day" }] });
    const away7 = { ...input, timeOff: timeOffOf("Pacific/Auckland", away("2026-12-07", "2026-12-08"), []) };
    expect(explainSlot({ ...away7, busy: [], isActive: true }, Date.parse("2026-12-07T20:00:00Z")).reasons).toEqual([
      { code: "out_of_office", timeOffId: "ooo_2026-12-07", startDate: "2026-12-07", endDate: "2026-12-08" },
    ]);
  });

  it("with a weekly limit: days off offer nothing, and the week's bookings still count on the days around them", () => {
    // Berlin weekdays 09–17; Monday 2 and Tuesday 3 November hold a booking at 10:00 CET (09:00Z) each.
    const booked = [Date.parse("2026-11-02T09:00:00Z"), Date.parse("2026-11-03T09:00:00Z")];
    const busy = booked.map((start) => ({ start, end: start + 3_600_000 }));
    const timeOff = timeOffOf("Europe/Berlin", away("2026-11-04", "2026-11-05"), []);
    const week = (perWeek: number) => guest(host("Europe/Berlin", everyDay("09:00", "17:00", WEEKDAYS), { busy, timeOff, limits: { perWeek, booked } }), "2026-11-04", "2026-11-06", "Europe/Berlin");
    const three = utc(computeSlots(week(3)));
    expect(three.every((s) => s.startsWith("2026-11-06"))).toBe(true);
    expect(three).toHaveLength(8);
    expect(computeSlots(week(2))).toEqual([]);
    const wednesday = explainSlot({ ...week(2), busy: [], isActive: true }, Date.parse("2026-11-04T09:00:00Z")).reasons.map((r) => r.code);
    expect(wednesday).toEqual(["out_of_office", "limit_reached"]);
  });

  it("round robin passes over the host who is away; collective offers nothing that day", () => {
    const rules = everyDay("09:00", "17:00", WEEKDAYS);
    const ana = host("Pacific/Auckland", rules, { timeOff: timeOffOf("Pacific/Auckland", away("2026-12-07", "2026-12-07"), []) });
    const ben = host("Pacific/Auckland", rules);
    const team = (date: string) => [
      { hostId: "ana", input: guest(ana, date, date, "Pacific/Auckland") },
      { hostId: "ben", input: guest(ben, date, date, "Pacific/Auckland") },
    ];
    const monday = computeTeamSlots("round_robin", team("2026-12-07"));
    expect(monday).toHaveLength(8);
    expect(monday.every((s) => s.hostIds.join() === "ben")).toBe(true);
    expect(computeTeamSlots("round_robin", team("2026-12-08")).every((s) => s.hostIds.join() === "ana,ben")).toBe(true);
    expect(computeTeamSlots("collective", team("2026-12-07"))).toEqual([]);
    expect(computeTeamSlots("collective", team("2026-12-08"))).toHaveLength(8);
  });
});
