import { describe, expect, it } from "vitest";
import { computeSlots, isOfferedSlot, toSlotDtos, type DateOverride, type Slot, type SlotInput, type WeeklyRule } from "./index";

// Table-driven examples of decisions §7. Every expected instant and local time below was worked
// out by hand from the timezone facts (offsets and transition times), never read off the engine.
//   America/New_York  EST -05:00, EDT -04:00; 2027-03-14 02:00→03:00, 2026-11-01 02:00→01:00
//   Europe/Berlin     CET +01:00, CEST +02:00; 2027-03-28 02:00→03:00 (01:00Z)
//   Asia/Kolkata      +05:30 all year
//   Australia/Lord_Howe +11:00 (DST) until 2027-04-04 02:00→01:30, +10:30 until 2027-10-03 02:00→02:30

const hm = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
/** The same hours on every weekday (dayOfWeek 0 = Sunday … 6 = Saturday). */
const daily = (...hours: [string, string][]): WeeklyRule[] =>
  [0, 1, 2, 3, 4, 5, 6].flatMap((dayOfWeek) => hours.map(([s, e]) => ({ dayOfWeek, startMinute: hm(s), endMinute: hm(e) })));
const on = (dayOfWeek: number, ...hours: [string, string][]): WeeklyRule[] =>
  hours.map(([s, e]) => ({ dayOfWeek, startMinute: hm(s), endMinute: hm(e) }));
const iv = (s: string, e: string) => ({ startMinute: hm(s), endMinute: hm(e) });

type Case = {
  tz?: string;
  rules?: WeeklyRule[];
  overrides?: DateOverride[];
  duration?: number;
  step?: number | null;
  before?: number;
  after?: number;
  busy?: [string, string][];
  now?: string;
  notice?: number;
  advance?: number;
  from: string;
  to?: string;
  guestTz?: string;
};

function input(c: Case): SlotInput {
  const tz = c.tz ?? "America/New_York";
  return {
    now: Date.parse(c.now ?? "2026-06-01T00:00:00Z"),
    host: { timeZone: tz, minNoticeHours: c.notice ?? 0, maxAdvanceDays: c.advance ?? 3650 },
    weeklyRules: c.rules ?? [],
    overrides: c.overrides ?? [],
    eventType: {
      durationMinutes: c.duration ?? 60,
      bufferBeforeMinutes: c.before ?? 0,
      bufferAfterMinutes: c.after ?? 0,
      slotIntervalMinutes: c.step === undefined ? null : c.step,
    },
    busy: (c.busy ?? []).map(([s, e]) => ({ start: Date.parse(s), end: Date.parse(e) })),
    range: { from: c.from, to: c.to ?? c.from, timeZone: c.guestTz ?? tz },
  };
}

const utc = (slots: Slot[]) => slots.map((s) => new Date(s.start).toISOString().replace(".000Z", "Z"));
const display = (slots: Slot[], tz: string) => toSlotDtos(slots, tz).map((d) => d.displayStart);

describe("DST in the host's zone: gaps skipped, repeated hour = first occurrence", () => {
  it.each<[string, Case, string[], string[]]>([
    [
      "NY spring forward: 00:00–05:00, 60-min slots, no 02:00",
      { rules: on(0, ["00:00", "05:00"]), from: "2027-03-14" },
      ["2027-03-14T05:00:00Z", "2027-03-14T06:00:00Z", "2027-03-14T07:00:00Z", "2027-03-14T08:00:00Z"],
      ["2027-03-14T00:00:00-05:00", "2027-03-14T01:00:00-05:00", "2027-03-14T03:00:00-04:00", "2027-03-14T04:00:00-04:00"],
    ],
    [
      "NY spring forward: 01:00–04:00 every 30 min; 01:30 spans the gap, 02:xx skipped",
      { rules: on(0, ["01:00", "04:00"]), step: 30, from: "2027-03-14" },
      ["2027-03-14T06:00:00Z", "2027-03-14T06:30:00Z", "2027-03-14T07:00:00Z"],
      ["2027-03-14T01:00:00-05:00", "2027-03-14T01:30:00-05:00", "2027-03-14T03:00:00-04:00"],
    ],
    [
      "NY spring forward: an interval ending at skipped 02:30 ends where the gap ends (03:00 EDT = 07:00Z)",
      { rules: on(0, ["00:00", "02:30"]), step: 30, from: "2027-03-14" },
      ["2027-03-14T05:00:00Z", "2027-03-14T05:30:00Z", "2027-03-14T06:00:00Z"],
      ["2027-03-14T00:00:00-05:00", "2027-03-14T00:30:00-05:00", "2027-03-14T01:00:00-05:00"],
    ],
    [
      "NY fall back: 01:00–04:00, 30-min slots; 01:xx is EDT, the repeated hour is not offered twice",
      { rules: on(0, ["01:00", "04:00"]), duration: 30, from: "2026-11-01" },
      ["2026-11-01T05:00:00Z", "2026-11-01T05:30:00Z", "2026-11-01T07:00:00Z", "2026-11-01T07:30:00Z", "2026-11-01T08:00:00Z", "2026-11-01T08:30:00Z"],
      ["2026-11-01T01:00:00-04:00", "2026-11-01T01:30:00-04:00", "2026-11-01T02:00:00-05:00", "2026-11-01T02:30:00-05:00", "2026-11-01T03:00:00-05:00", "2026-11-01T03:30:00-05:00"],
    ],
    [
      "NY fall back: an interval ending at ambiguous 01:30 ends at its first occurrence (05:30Z)",
      { rules: on(0, ["00:00", "01:30"]), duration: 30, from: "2026-11-01" },
      ["2026-11-01T04:00:00Z", "2026-11-01T04:30:00Z", "2026-11-01T05:00:00Z"],
      ["2026-11-01T00:00:00-04:00", "2026-11-01T00:30:00-04:00", "2026-11-01T01:00:00-04:00"],
    ],
    [
      "Berlin spring forward: 01:00–04:00, 30-min slots, 02:xx skipped",
      { tz: "Europe/Berlin", rules: on(0, ["01:00", "04:00"]), duration: 30, from: "2027-03-28" },
      ["2027-03-28T00:00:00Z", "2027-03-28T00:30:00Z", "2027-03-28T01:00:00Z", "2027-03-28T01:30:00Z"],
      ["2027-03-28T01:00:00+01:00", "2027-03-28T01:30:00+01:00", "2027-03-28T03:00:00+02:00", "2027-03-28T03:30:00+02:00"],
    ],
    [
      "Lord Howe half-hour spring forward (Oct): 02:00–02:29 skipped",
      { tz: "Australia/Lord_Howe", rules: on(0, ["01:00", "04:00"]), duration: 30, from: "2027-10-03" },
      ["2027-10-02T14:30:00Z", "2027-10-02T15:00:00Z", "2027-10-02T15:30:00Z", "2027-10-02T16:00:00Z", "2027-10-02T16:30:00Z"],
      ["2027-10-03T01:00:00+10:30", "2027-10-03T01:30:00+10:30", "2027-10-03T02:30:00+11:00", "2027-10-03T03:00:00+11:00", "2027-10-03T03:30:00+11:00"],
    ],
    [
      "Lord Howe half-hour fall back (Apr): 01:30 is its first (+11:00) occurrence",
      { tz: "Australia/Lord_Howe", rules: on(0, ["01:00", "03:00"]), duration: 30, from: "2027-04-04" },
      ["2027-04-03T14:00:00Z", "2027-04-03T14:30:00Z", "2027-04-03T15:30:00Z", "2027-04-03T16:00:00Z"],
      ["2027-04-04T01:00:00+11:00", "2027-04-04T01:30:00+11:00", "2027-04-04T02:00:00+10:30", "2027-04-04T02:30:00+10:30"],
    ],
  ])("%s", (_name, c, starts, displays) => {
    const slots = computeSlots(input(c));
    expect(utc(slots)).toEqual(starts);
    expect(display(slots, c.tz ?? "America/New_York")).toEqual(displays);
  });

  it("a 09:00–17:00 NY host starts at 14:00Z the day before spring forward, 13:00Z on it", () => {
    const slots = computeSlots(input({ rules: daily(["09:00", "17:00"]), from: "2027-03-13", to: "2027-03-14" }));
    expect(slots).toHaveLength(16);
    expect(utc([slots[0]!, slots[7]!, slots[8]!, slots[15]!])).toEqual([
      "2027-03-13T14:00:00Z", "2027-03-13T21:00:00Z", "2027-03-14T13:00:00Z", "2027-03-14T20:00:00Z",
    ]);
  });

  it("a 09:00–17:00 NY host starts at 13:00Z the day before fall back, 14:00Z on it", () => {
    const slots = computeSlots(input({ rules: daily(["09:00", "17:00"]), from: "2026-10-31", to: "2026-11-01" }));
    expect(utc([slots[0]!, slots[8]!])).toEqual(["2026-10-31T13:00:00Z", "2026-11-01T14:00:00Z"]);
  });

  it("a Berlin host seen from New York: 6h apart, then 5h (US changed first), then 6h again", () => {
    const c: Case = { tz: "Europe/Berlin", rules: daily(["09:00", "17:00"]), guestTz: "America/New_York", from: "2027-03-12", to: "2027-03-29" };
    const dtos = toSlotDtos(computeSlots(input(c)), "America/New_York");
    const firstOn = (date: string) => dtos.find((d) => d.displayStart.startsWith(date));
    expect(firstOn("2027-03-12")).toMatchObject({ startTime: "2027-03-12T08:00:00Z", displayStart: "2027-03-12T03:00:00-05:00" });
    expect(firstOn("2027-03-15")).toMatchObject({ startTime: "2027-03-15T08:00:00Z", displayStart: "2027-03-15T04:00:00-04:00" });
    expect(firstOn("2027-03-27")).toMatchObject({ startTime: "2027-03-27T08:00:00Z", displayStart: "2027-03-27T04:00:00-04:00" });
    expect(firstOn("2027-03-28")).toMatchObject({ startTime: "2027-03-28T07:00:00Z", displayStart: "2027-03-28T03:00:00-04:00" });
    expect(firstOn("2027-03-29")).toMatchObject({ startTime: "2027-03-29T07:00:00Z", displayStart: "2027-03-29T03:00:00-04:00" });
    expect(dtos).toHaveLength(18 * 8);
  });
});

describe("the guest's dates decide which slots are listed", () => {
  // NY host, Monday 2027-03-15 13:00–16:00 EDT, 30-min slots. Kolkata midnight is 14:30 EDT.
  const kolkata: Case = { rules: on(1, ["13:00", "16:00"]), duration: 30, guestTz: "Asia/Kolkata", from: "" };
  it.each<[string, string[], string[]]>([
    ["2027-03-15", ["2027-03-15T17:00:00Z", "2027-03-15T17:30:00Z", "2027-03-15T18:00:00Z"], ["2027-03-15T22:30:00+05:30", "2027-03-15T23:00:00+05:30", "2027-03-15T23:30:00+05:30"]],
    ["2027-03-16", ["2027-03-15T18:30:00Z", "2027-03-15T19:00:00Z", "2027-03-15T19:30:00Z"], ["2027-03-16T00:00:00+05:30", "2027-03-16T00:30:00+05:30", "2027-03-16T01:00:00+05:30"]],
    ["2027-03-14", [], []],
  ])("Kolkata guest on %s", (date, starts, displays) => {
    const slots = computeSlots(input({ ...kolkata, from: date }));
    expect(utc(slots)).toEqual(starts);
    expect(display(slots, "Asia/Kolkata")).toEqual(displays);
  });

  it("Lord Howe guest on 2027-04-04, the day it goes from +11:00 to +10:30 (UTC host 12:00–18:00)", () => {
    // Lord Howe's 2027-04-04 runs from 2027-04-03T13:00Z (+11:00) to 2027-04-04T13:30Z (+10:30).
    const slots = computeSlots(input({ tz: "UTC", rules: daily(["12:00", "18:00"]), guestTz: "Australia/Lord_Howe", from: "2027-04-04" }));
    expect(utc(slots)).toEqual([
      "2027-04-03T13:00:00Z", "2027-04-03T14:00:00Z", "2027-04-03T15:00:00Z", "2027-04-03T16:00:00Z", "2027-04-03T17:00:00Z",
      "2027-04-04T12:00:00Z", "2027-04-04T13:00:00Z",
    ]);
    expect(display(slots, "Australia/Lord_Howe")).toEqual([
      "2027-04-04T00:00:00+11:00", "2027-04-04T01:00:00+11:00", "2027-04-04T01:30:00+10:30", "2027-04-04T02:30:00+10:30",
      "2027-04-04T03:30:00+10:30", "2027-04-04T22:30:00+10:30", "2027-04-04T23:30:00+10:30",
    ]);
  });

  it("a Berlin 23:30 slot is already the next day for a Kolkata guest", () => {
    // Monday 2027-03-15 23:30 CET = 22:30Z = Tuesday 04:00 IST.
    const c: Case = { tz: "Europe/Berlin", rules: on(1, ["23:00", "24:00"]), duration: 30, guestTz: "Asia/Kolkata", from: "" };
    expect(utc(computeSlots(input({ ...c, from: "2027-03-16" })))).toEqual(["2027-03-15T22:00:00Z", "2027-03-15T22:30:00Z"]);
    expect(computeSlots(input({ ...c, from: "2027-03-15" }))).toEqual([]);
  });
});

describe("hours: overrides, split intervals, steps, 24:00", () => {
  // UTC host keeps the arithmetic visible. 2027-03-15 is a Monday.
  const week = { tz: "UTC", rules: [1, 2, 3, 4, 5].flatMap((d) => on(d, ["09:00", "17:00"])) };
  it.each<[string, Case, string[]]>([
    ["override closes a weekday", { ...week, duration: 120, overrides: [{ date: "2027-03-16", intervals: [] }], from: "2027-03-16" }, []],
    ["other days keep their rules", { ...week, duration: 120, overrides: [{ date: "2027-03-16", intervals: [] }], from: "2027-03-17" }, ["09:00", "11:00", "13:00", "15:00"]],
    [
      "override replaces hours with split intervals (60 min every 30)",
      { ...week, step: 30, overrides: [{ date: "2027-03-17", intervals: [iv("10:00", "12:00"), iv("14:00", "15:30")] }], from: "2027-03-17" },
      ["10:00", "10:30", "11:00", "14:00", "14:30"],
    ],
    ["override opens a Saturday", { ...week, overrides: [{ date: "2027-03-20", intervals: [iv("10:00", "11:00")] }], from: "2027-03-20" }, ["10:00"]],
    ["no rule, no slots (Sunday)", { ...week, from: "2027-03-21" }, []],
    [
      "split weekly hours, 60 min every 15: last starts are 11:00 and 16:00",
      { tz: "UTC", rules: on(1, ["13:00", "17:00"], ["09:00", "12:00"]), step: 15, from: "2027-03-15" },
      ["09:00", "09:15", "09:30", "09:45", "10:00", "10:15", "10:30", "10:45", "11:00",
        "13:00", "13:15", "13:30", "13:45", "14:00", "14:15", "14:30", "14:45", "15:00", "15:15", "15:30", "15:45", "16:00"],
    ],
    ["null step = duration (45)", { tz: "UTC", rules: on(1, ["09:00", "12:00"]), duration: 45, from: "2027-03-15" }, ["09:00", "09:45", "10:30", "11:15"]],
    ["step longer than duration", { tz: "UTC", rules: on(1, ["09:00", "12:00"]), duration: 30, step: 60, from: "2027-03-15" }, ["09:00", "10:00", "11:00"]],
    ["grid starts at the interval start (09:10)", { tz: "UTC", rules: on(1, ["09:10", "11:00"]), duration: 50, from: "2027-03-15" }, ["09:10", "10:00"]],
    ["endMinute 1440 (24:00)", { tz: "UTC", rules: on(1, ["22:00", "24:00"]), step: 30, from: "2027-03-15" }, ["22:00", "22:30", "23:00"]],
    ["whole day 00:00–24:00 with 6-hour slots", { tz: "UTC", rules: on(1, ["00:00", "24:00"]), duration: 360, from: "2027-03-15" }, ["00:00", "06:00", "12:00", "18:00"]],
  ])("%s", (_name, c, times) => {
    expect(utc(computeSlots(input(c)))).toEqual(times.map((t) => `${c.from}T${t}:00Z`));
  });

  it("endMinute 1440 in Berlin ends at local midnight (23:00Z in winter)", () => {
    const slots = computeSlots(input({ tz: "Europe/Berlin", rules: on(1, ["22:00", "24:00"]), step: 30, from: "2027-03-15" }));
    expect(utc(slots)).toEqual(["2027-03-15T21:00:00Z", "2027-03-15T21:30:00Z", "2027-03-15T22:00:00Z"]);
    expect(slots.at(-1)!.end).toBe(Date.parse("2027-03-15T23:00:00Z"));
  });
});

describe("buffers against busy time (half-open: touching is free)", () => {
  // UTC host 09:00–17:00 on Monday 2027-03-15, 60-min slots every hour, 15 before and 30 after.
  const base: Case = { tz: "UTC", rules: on(1, ["09:00", "17:00"]), before: 15, after: 30, from: "2027-03-15" };
  const d = (t: string) => `2027-03-15T${t}:00Z`;
  it.each<[string, [string, string][], string[]]>([
    ["busy 12:30–13:45 touches 11:00's after-buffer and 14:00's before-buffer", [[d("12:30"), d("13:45")]], ["09", "10", "11", "14", "15", "16"]],
    ["one minute earlier blocks 11:00", [[d("12:29"), d("13:45")]], ["09", "10", "14", "15", "16"]],
    ["one minute later blocks 14:00", [[d("12:30"), d("13:46")]], ["09", "10", "11", "15", "16"]],
    ["before-buffer reaching before opening: busy 08:00–08:45 is free", [[d("08:00"), d("08:45")]], ["09", "10", "11", "12", "13", "14", "15", "16"]],
    ["… but 08:00–08:46 blocks 09:00", [[d("08:00"), d("08:46")]], ["10", "11", "12", "13", "14", "15", "16"]],
    ["after-buffer past closing: busy 17:30–18:00 is free", [[d("17:30"), d("18:00")]], ["09", "10", "11", "12", "13", "14", "15", "16"]],
    ["… but 17:29–18:00 blocks 16:00", [[d("17:29"), d("18:00")]], ["09", "10", "11", "12", "13", "14", "15"]],
    ["unsorted overlapping busy intervals are merged", [[d("13:50"), d("14:10")], [d("09:30"), d("10:30")], [d("10:00"), d("10:40")]], ["11", "12", "15", "16"]],
  ])("%s", (_name, busy, hours) => {
    expect(utc(computeSlots(input({ ...base, busy })))).toEqual(hours.map((h) => d(`${h}:00`)));
  });

  it("buffers alone never remove slots, even with hours of one slot", () => {
    const c: Case = { tz: "UTC", rules: on(1, ["09:00", "10:00"]), before: 240, after: 240, from: "2027-03-15" };
    expect(utc(computeSlots(input(c)))).toEqual([d("09:00")]);
  });
});

describe("notice and booking window", () => {
  // NY host, every day 09:00–17:00 EDT, 30-min slots; 2 hours' notice.
  const ny: Case = { rules: daily(["09:00", "17:00"]), duration: 30, notice: 2, from: "2027-03-15" };
  it.each<[string, string]>([
    ["2027-03-15T14:30:00Z", "2027-03-15T16:30:00Z"], // exactly now + notice is offered
    ["2027-03-15T14:30:00.001Z", "2027-03-15T17:00:00Z"], // a millisecond later it is not
    ["2027-03-15T14:01:00Z", "2027-03-15T16:30:00Z"],
    ["2027-03-15T14:00:00Z", "2027-03-15T16:00:00Z"],
  ])("now %s → first slot %s", (now, first) => {
    expect(utc(computeSlots(input({ ...ny, now })))[0]).toBe(first);
  });

  it.each<[string, Case, string[], string]>([
    // Kolkata host: 20:00Z on the 15th is already the 16th there, so the window runs to the 18th.
    [
      "Kolkata host, today is the 16th locally",
      { tz: "Asia/Kolkata", rules: daily(["09:00", "17:00"]), duration: 30, now: "2027-03-15T20:00:00Z", advance: 2, from: "2027-03-10", to: "2027-03-25" },
      ["2027-03-16", "2027-03-17", "2027-03-18"],
      "2027-03-18T16:30:00+05:30",
    ],
    // NY host: 03:00Z on the 16th is still the 15th in New York, so the window ends on the 16th.
    [
      "NY host, today is still the 15th locally",
      { rules: daily(["09:00", "17:00"]), duration: 30, now: "2027-03-16T03:00:00Z", advance: 1, from: "2027-03-10", to: "2027-03-25" },
      ["2027-03-16"], // the 15th's hours are already past
      "2027-03-16T16:30:00-04:00",
    ],
    [
      "maxAdvanceDays 0: today only",
      { rules: daily(["09:00", "17:00"]), duration: 30, now: "2027-03-16T03:00:00Z", advance: 0, from: "2027-03-10", to: "2027-03-25" },
      [],
      "",
    ],
  ])("%s", (_name, c, dates, last) => {
    const shown = display(computeSlots(input(c)), c.tz ?? "America/New_York");
    expect([...new Set(shown.map((s) => s.slice(0, 10)))]).toEqual(dates);
    expect(shown.at(-1) ?? "").toBe(last);
  });

  it("maxAdvanceDays 0 still offers the rest of today", () => {
    const c: Case = { rules: daily(["09:00", "17:00"]), duration: 30, now: "2027-03-15T19:00:00Z", advance: 0, from: "2027-03-15", to: "2027-03-20" };
    expect(utc(computeSlots(input(c)))).toEqual(["2027-03-15T19:00:00Z", "2027-03-15T19:30:00Z", "2027-03-15T20:00:00Z", "2027-03-15T20:30:00Z"]);
  });
});

describe("isOfferedSlot", () => {
  // NY host Monday 2027-03-15 09:00–17:00 EDT, 60 min every 30, busy 13:00–14:00 EDT.
  const c = input({ rules: on(1, ["09:00", "17:00"]), step: 30, busy: [["2027-03-15T17:00:00Z", "2027-03-15T18:00:00Z"]], from: "2027-03-15" });
  it.each<[string, string, boolean]>([
    ["an offered start (10:00 EDT)", "2027-03-15T14:00:00Z", true],
    ["on the 30-min grid (10:30 EDT)", "2027-03-15T14:30:00Z", true],
    ["touching the busy time (12:00 EDT)", "2027-03-15T16:00:00Z", true],
    ["overlapping the busy time (12:30 EDT)", "2027-03-15T16:30:00Z", false],
    ["busy (13:00 EDT)", "2027-03-15T17:00:00Z", false],
    ["off the grid (10:15 EDT)", "2027-03-15T14:15:00Z", false],
    ["off the grid by a second", "2027-03-15T14:00:01Z", false],
    ["running past closing (16:30 EDT)", "2027-03-15T20:30:00Z", false],
    ["a day without hours", "2027-03-16T14:00:00Z", false],
  ])("%s → %s", (_name, start, expected) => {
    expect(isOfferedSlot(c, Date.parse(start))).toBe(expected);
  });
});

describe("toSlotDtos", () => {
  const slot = { start: Date.parse("2027-03-15T13:00:00Z"), end: Date.parse("2027-03-15T14:00:00Z") };
  it.each<[string, string, string]>([
    ["America/New_York", "2027-03-15T09:00:00-04:00", "2027-03-15T10:00:00-04:00"],
    ["Asia/Kolkata", "2027-03-15T18:30:00+05:30", "2027-03-15T19:30:00+05:30"],
    ["Australia/Lord_Howe", "2027-03-16T00:00:00+11:00", "2027-03-16T01:00:00+11:00"],
    ["UTC", "2027-03-15T13:00:00+00:00", "2027-03-15T14:00:00+00:00"],
    ["America/St_Johns", "2027-03-15T10:30:00-02:30", "2027-03-15T11:30:00-02:30"],
  ])("%s", (tz, displayStart, displayEnd) => {
    expect(toSlotDtos([slot], tz)).toEqual([{ startTime: "2027-03-15T13:00:00Z", endTime: "2027-03-15T14:00:00Z", displayStart, displayEnd }]);
  });

  it("each end gets its own offset across a transition", () => {
    const across = { start: Date.parse("2026-11-01T05:30:00Z"), end: Date.parse("2026-11-01T06:00:00Z") };
    expect(toSlotDtos([across], "America/New_York")[0]).toMatchObject({ displayStart: "2026-11-01T01:30:00-04:00", displayEnd: "2026-11-01T01:00:00-05:00" });
  });
});
