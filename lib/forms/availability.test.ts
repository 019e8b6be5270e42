import { describe, expect, it } from "vitest";
import { zodIssues } from "@/lib/schemas/issues";
import { AvailabilityBody } from "@/lib/schemas/availability";
import { copyDay, draftFrom, nextInterval, pageRank, placeIssues, toBody, validate, weeklyHoursOf, type AvailabilityDraft, type Spot } from "./availability";

const stored = {
  timezone: "Europe/Berlin",
  minNoticeHours: 4,
  maxAdvanceDays: 60,
  weeklyRules: [
    { dayOfWeek: 1, startTime: "13:00", endTime: "17:00" },
    { dayOfWeek: 1, startTime: "09:00", endTime: "12:00" },
    { dayOfWeek: 5, startTime: "09:00", endTime: "24:00" },
  ],
  dateOverrides: [
    { date: "2027-03-15", available: true, intervals: [{ startTime: "10:00", endTime: "12:00" }] },
    { date: "2027-01-01", available: false },
  ],
};

/** What the API says about a body: the real schema and the real issue paths. */
function apiIssues(draft: AvailabilityDraft) {
  const result = AvailabilityBody.safeParse(toBody(draft));
  return { sent: draft, issues: result.success ? [] : zodIssues(result.error) };
}

describe("draft and body", () => {
  it("round-trips what the API stores, days sorted, overrides by date", async () => {
    const draft = draftFrom(stored);
    expect(draft.days[1]!.intervals.map((i) => i.startTime)).toEqual(["09:00", "13:00"]);
    expect(draft.days[0]!.enabled).toBe(false);
    const body = toBody(draft);
    expect(AvailabilityBody.safeParse(body).success).toBe(true);
    expect(body.weeklyRules).toEqual([
      { dayOfWeek: 1, startTime: "09:00", endTime: "12:00" },
      { dayOfWeek: 1, startTime: "13:00", endTime: "17:00" },
      { dayOfWeek: 5, startTime: "09:00", endTime: "24:00" },
    ]);
    expect(body.dateOverrides).toEqual([
      { date: "2027-01-01", available: false },
      { date: "2027-03-15", available: true, intervals: [{ startTime: "10:00", endTime: "12:00" }] },
    ]);
    expect(await validate(draft)).toEqual({});
  });

  it("sends no hours for a day switched off, yet remembers them if it is switched back on", () => {
    const draft = draftFrom(stored);
    draft.days[1]!.enabled = false;
    expect(toBody(draft).weeklyRules.every((r) => r.dayOfWeek !== 1)).toBe(true);
    draft.days[1]!.enabled = true;
    expect(toBody(draft).weeklyRules.filter((r) => r.dayOfWeek === 1)).toHaveLength(2);
  });

  it("copies a day's hours to other days as new rows", () => {
    const draft = copyDay(draftFrom(stored), 1, [2, 3, 1]);
    expect(draft.days[2]!.intervals.map(({ startTime, endTime }) => `${startTime}-${endTime}`)).toEqual(["09:00-12:00", "13:00-17:00"]);
    expect(draft.days[3]!.enabled).toBe(true);
    expect(draft.days[2]!.intervals[0]).not.toBe(draft.days[1]!.intervals[0]);
    expect(draft.days[1]!.intervals).toHaveLength(2);
  });

  it("suggests the next interval an hour after the latest end, never past midnight", () => {
    expect(nextInterval([])).toMatchObject({ startTime: "09:00", endTime: "17:00" });
    expect(nextInterval([{ startTime: "09:00", endTime: "12:00" }])).toMatchObject({ startTime: "13:00", endTime: "14:00" });
    expect(nextInterval([{ startTime: "09:00", endTime: "23:30" }])).toMatchObject({ startTime: "23:00", endTime: "24:00" });
  });

  it("starts an override's own hours from that weekday's weekly hours", () => {
    // 2027-03-15 is a Monday.
    expect(weeklyHoursOf(draftFrom(stored), "2027-03-15").map((i) => i.startTime)).toEqual(["09:00", "13:00"]);
    expect(weeklyHoursOf(draftFrom(stored), "2027-03-14")).toEqual([]);
  });
});

describe("the page's checks agree with the API's", () => {
  it("an end before its start: both flag the end of that row", async () => {
    const draft = draftFrom(stored);
    draft.days[5]!.intervals[0]!.endTime = "08:00";
    expect(await validate(draft)).toEqual({ "days.5.intervals.0.endTime": "The end must be after the start." });
    const { sent, issues } = apiIssues(draft);
    expect(placeIssues(issues, sent).problems).toEqual({ "days.5.intervals.0.endTime": "The end must be after the start" });
  });

  it("overlapping intervals: both flag the later row's start, the page naming the interval it overlaps", async () => {
    const draft = draftFrom(stored);
    draft.days[1]!.intervals[1]!.startTime = "11:00";
    expect(await validate(draft)).toEqual({ "days.1.intervals.1.startTime": "Overlaps 09:00–12:00." });
    const { sent, issues } = apiIssues(draft);
    expect(Object.keys(placeIssues(issues, sent).problems)).toEqual(["days.1.intervals.1.startTime"]);
  });

  it("override problems land on that override, even after a day before it was switched off", async () => {
    const draft = draftFrom(stored);
    draft.days[1]!.enabled = false; // shifts every rule index: the map must follow
    const closed = draft.overrides[0]!;
    const open = draft.overrides[1]!;
    open.date = closed.date;
    open.intervals[0]!.endTime = "09:00";
    const { sent, issues } = apiIssues(draft);
    const placed = placeIssues(issues, sent);
    expect(placed.problems).toEqual({
      "overrides.1.date": "Only one override per date",
      "overrides.1.intervals.0.endTime": "The end must be after the start",
    });
    expect(await validate(draft)).toEqual({
      "overrides.1.date": "This date already has an override above.",
      "overrides.1.intervals.0.endTime": "The end must be after the start.",
    });
  });

  it("an override open all day without hours, and bounds of notice and window", async () => {
    const draft = draftFrom(stored);
    draft.overrides[1]!.intervals = [];
    draft.minNoticeHours = "9000";
    draft.maxAdvanceDays = "0";
    const { sent, issues } = apiIssues(draft);
    const expected = ["overrides.1.available", "maxAdvanceDays", "minNoticeHours"];
    expect(Object.keys(placeIssues(issues, sent).problems).sort()).toEqual(expected.sort());
    expect(await validate(draft)).toEqual({
      "overrides.1.available": "Add hours, or mark the day closed.",
      minNoticeHours: "Enter whole hours from 0 to 8760 (a year).",
      maxAdvanceDays: "Enter whole days from 1 to 730 (two years).",
    });
  });

  it("finds every problem at once: a row's times are checked whatever else is wrong", async () => {
    const draft = draftFrom(stored);
    draft.days[1]!.intervals[0]!.endTime = "08:00";
    draft.days[5]!.intervals[0]!.startTime = "";
    draft.minNoticeHours = "";
    draft.maxAdvanceDays = "0";
    draft.overrides[0]!.date = "";
    draft.overrides[1]!.date = "1969-07-20";
    expect(await validate(draft)).toEqual({
      "days.1.intervals.0.endTime": "The end must be after the start.",
      "days.5.intervals.0.startTime": "Enter a start time.",
      minNoticeHours: "Enter whole hours from 0 to 8760 (a year).",
      maxAdvanceDays: "Enter whole days from 1 to 730 (two years).",
      "overrides.0.date": "Choose a date.",
      "overrides.1.date": "Must be a date written YYYY-MM-DD, in the years 1970–9999",
    });
  });

  it("keeps issues it cannot place for the summary", () => {
    const sent = draftFrom(stored);
    expect(placeIssues([{ path: "weeklyRules.99.startTime", message: "Gone" }, { path: "", message: "Bad JSON" }], sent).unplaced).toEqual(["Gone", "Bad JSON"]);
  });
});

describe("pageRank: problems listed in the order the page shows them", () => {
  it("puts the timezone first, the week from Monday (Sunday last), then the overrides, then the limits", () => {
    // Sunday is day 0 of the draft, and shown last; the overrides are by date: 2027-01-01, then March.
    const spots: Spot[] = [
      "maxAdvanceDays",
      "overrides.1.intervals.0.startTime",
      "days.0.intervals.0.startTime",
      "minNoticeHours",
      "overrides.0.date",
      "days.1.intervals.1.startTime",
      "days.1.intervals.0.endTime",
      "overrides.1.available",
      "overrides.1.date",
      "timezone",
      "days.1.intervals.0.startTime",
    ];
    expect([...spots].sort((a, b) => pageRank(a) - pageRank(b))).toEqual([
      "timezone",
      "days.1.intervals.0.startTime",
      "days.1.intervals.0.endTime",
      "days.1.intervals.1.startTime",
      "days.0.intervals.0.startTime",
      "overrides.0.date",
      "overrides.1.date",
      "overrides.1.intervals.0.startTime",
      "overrides.1.available",
      "minNoticeHours",
      "maxAdvanceDays",
    ]);
  });
});
