import { describe, expect, it } from "vitest";
import { zodIssues } from "@/lib/http/parse";
import { AvailabilityBody } from "@/lib/schemas/availability";
import { copyDay, draftFrom, nextInterval, pageRank, placeIssues, toBody, validate, weeklyHoursOf, type AvailabilityDraft, type Spot } from "./availability-draft";

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
  const sent = toBody(draft);
  const result = AvailabilityBody.safeParse(sent.body);
  return { sent, issues: result.success ? [] : zodIssues(result.error) };
}

describe("draft and body", () => {
  it("round-trips what the API stores, days sorted, overrides by date", () => {
    const draft = draftFrom(stored);
    expect(draft.days[1]!.intervals.map((i) => i.startTime)).toEqual(["09:00", "13:00"]);
    expect(draft.days[0]!.enabled).toBe(false);
    const { body } = toBody(draft);
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
    expect(validate(draft)).toEqual({});
  });

  it("sends no hours for a day switched off, yet remembers them if it is switched back on", () => {
    const draft = draftFrom(stored);
    draft.days[1]!.enabled = false;
    expect(toBody(draft).body.weeklyRules.every((r) => r.dayOfWeek !== 1)).toBe(true);
    draft.days[1]!.enabled = true;
    expect(toBody(draft).body.weeklyRules.filter((r) => r.dayOfWeek === 1)).toHaveLength(2);
  });

  it("copies a day's hours to other days as new rows", () => {
    const draft = copyDay(draftFrom(stored), 1, [2, 3, 1]);
    expect(draft.days[2]!.intervals.map(({ startTime, endTime }) => `${startTime}-${endTime}`)).toEqual(["09:00-12:00", "13:00-17:00"]);
    expect(draft.days[3]!.enabled).toBe(true);
    expect(draft.days[2]!.intervals[0]!.key).not.toBe(draft.days[1]!.intervals[0]!.key);
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
  it("an end before its start: both flag the end of that row", () => {
    const draft = draftFrom(stored);
    const row = draft.days[5]!.intervals[0]!;
    row.endTime = "08:00";
    expect(validate(draft)).toEqual({ [`interval:${row.key}:endTime`]: "The end must be after the start." });
    const { sent, issues } = apiIssues(draft);
    expect(placeIssues(issues, sent).problems).toEqual({ [`interval:${row.key}:endTime`]: "The end must be after the start" });
  });

  it("overlapping intervals: both flag the later row's start", () => {
    const draft = draftFrom(stored);
    const second = draft.days[1]!.intervals[1]!;
    second.startTime = "11:00";
    expect(Object.keys(validate(draft))).toEqual([`interval:${second.key}:startTime`]);
    const { sent, issues } = apiIssues(draft);
    expect(Object.keys(placeIssues(issues, sent).problems)).toEqual([`interval:${second.key}:startTime`]);
  });

  it("override problems land on that override, even after a day before it was switched off", () => {
    const draft = draftFrom(stored);
    draft.days[1]!.enabled = false; // shifts every rule index: the map must follow
    const closed = draft.overrides[0]!;
    const open = draft.overrides[1]!;
    open.date = closed.date;
    open.intervals[0]!.endTime = "09:00";
    const { sent, issues } = apiIssues(draft);
    const placed = placeIssues(issues, sent);
    expect(placed.problems).toEqual({
      [`override:${open.key}:date`]: "Only one override per date",
      [`interval:${open.intervals[0]!.key}:endTime`]: "The end must be after the start",
    });
    expect(Object.keys(validate(draft)).sort()).toEqual(Object.keys(placed.problems).sort());
  });

  it("an override open all day without hours, and bounds of notice and window", () => {
    const draft = draftFrom(stored);
    draft.overrides[1]!.intervals = [];
    draft.minNoticeHours = "9000";
    draft.maxAdvanceDays = "0";
    const { sent, issues } = apiIssues(draft);
    const expected = [`override:${draft.overrides[1]!.key}:intervals`, "maxAdvanceDays", "minNoticeHours"];
    expect(Object.keys(placeIssues(issues, sent).problems).sort()).toEqual(expected.sort());
    expect(Object.keys(validate(draft)).sort()).toEqual(expected.sort());
  });

  it("keeps issues it cannot place for the summary", () => {
    const sent = toBody(draftFrom(stored));
    expect(placeIssues([{ path: "weeklyRules.99.startTime", message: "Gone" }, { path: "", message: "Bad JSON" }], sent).unplaced).toEqual(["Gone", "Bad JSON"]);
  });
});

describe("pageRank: problems listed in the order the page shows them", () => {
  it("puts the timezone first, the week from Monday (Sunday last), then the overrides, then the limits", () => {
    const draft = draftFrom({ ...stored, weeklyRules: [...stored.weeklyRules, { dayOfWeek: 0, startTime: "10:00", endTime: "11:00" }] });
    const sunday = draft.days[0]!.intervals[0]!.key;
    const [mondayMorning, mondayAfternoon] = draft.days[1]!.intervals.map((i) => i.key);
    const [newYear, march] = draft.overrides;
    const spots: Spot[] = [
      "maxAdvanceDays",
      `interval:${march!.intervals[0]!.key}:startTime`,
      `interval:${sunday}:startTime`,
      "minNoticeHours",
      `override:${newYear!.key}:date`,
      `interval:${mondayAfternoon}:startTime`,
      `interval:${mondayMorning}:endTime`,
      `override:${march!.key}:date`,
      "timezone",
      `interval:${mondayMorning}:startTime`,
    ];
    expect([...spots].sort((a, b) => pageRank(draft, a) - pageRank(draft, b))).toEqual([
      "timezone",
      `interval:${mondayMorning}:startTime`,
      `interval:${mondayMorning}:endTime`,
      `interval:${mondayAfternoon}:startTime`,
      `interval:${sunday}:startTime`,
      `override:${newYear!.key}:date`,
      `override:${march!.key}:date`,
      `interval:${march!.intervals[0]!.key}:startTime`,
      "minNoticeHours",
      "maxAdvanceDays",
    ]);
  });
});
