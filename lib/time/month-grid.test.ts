import { describe, expect, it } from "vitest";
import { addMonths, firstOfMonth, formatCalendarDate, formatMonth, lastOfMonth, monthOf, monthWeeks, prefersHour12, weekdayNames, weekdayOf, weekStartOf } from "./month-grid";
import { formatClock, formatClockRange, zoneLongName } from "./format";

const plain = (s: string) => s.replace(/[\u2009\u202f]/g, " ");

describe("calendar months", () => {
  it("steps months across years both ways", () => {
    expect(addMonths("2027-12", 1)).toBe("2028-01");
    expect(addMonths("2027-01", -1)).toBe("2026-12");
    expect(addMonths("2027-03", 13)).toBe("2028-04");
    expect(monthOf("2027-03-15")).toBe("2027-03");
  });

  it("knows each month's first and last day, leap years included", () => {
    expect(firstOfMonth("2028-02")).toBe("2028-02-01");
    expect(lastOfMonth("2028-02")).toBe("2028-02-29");
    expect(lastOfMonth("2027-02")).toBe("2027-02-28");
    expect(lastOfMonth("2027-12")).toBe("2027-12-31");
    expect(weekdayOf("2027-03-15")).toBe(1);
  });

  it("lays a month out in six weeks from the locale's first weekday", () => {
    // March 2027 starts on a Monday.
    const sundayFirst = monthWeeks("2027-03", 0);
    expect(sundayFirst).toHaveLength(6);
    expect(sundayFirst.every((w) => w.length === 7)).toBe(true);
    expect(sundayFirst[0]![0]).toBe("2027-02-28");
    expect(sundayFirst[0]![1]).toBe("2027-03-01");
    const mondayFirst = monthWeeks("2027-03", 1);
    expect(mondayFirst[0]![0]).toBe("2027-03-01");
    expect(mondayFirst[4]![2]).toBe("2027-03-31");
    expect(mondayFirst[5]![6]).toBe("2027-04-11");
    // Every day of the month is in the grid exactly once.
    const days = mondayFirst.flat().filter((d) => monthOf(d) === "2027-03");
    expect(days).toHaveLength(31);
    expect(new Set(days).size).toBe(31);
  });

  it("names months, weekdays and dates without a zone shifting them", () => {
    expect(formatMonth("2027-03")).toBe("March 2027");
    expect(weekdayNames(1).map((d) => d.short)).toEqual(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]);
    expect(weekdayNames(0)[0]).toEqual({ short: "Sun", long: "Sunday" });
    expect(formatCalendarDate("2027-03-16")).toBe("Tuesday, March 16");
    expect(formatCalendarDate("2027-03-16", { year: true })).toBe("Tuesday, March 16, 2027");
  });
});

describe("the guest's locale", () => {
  it("starts the week where the locale does", () => {
    expect(weekStartOf("en-US")).toBe(0);
    expect(weekStartOf("en-GB")).toBe(1);
    expect(weekStartOf("de-DE")).toBe(1);
  });

  it("reads the locale's clock: 12 hours in the US, 24 in Britain and Germany", () => {
    expect(prefersHour12("en-US")).toBe(true);
    expect(prefersHour12("en-GB")).toBe(false);
    expect(prefersHour12("de-DE")).toBe(false);
  });
});

describe("times on the guest's clock", () => {
  it("writes the same instant on a 12- or a 24-hour clock", () => {
    expect(plain(formatClock("2027-03-15T23:00:00Z", "America/Los_Angeles", true))).toBe("4:00 PM");
    expect(formatClock("2027-03-15T23:00:00Z", "America/Los_Angeles", false)).toBe("16:00");
    expect(plain(formatClock("2027-03-15T07:00:00Z", "America/Los_Angeles", true))).toBe("12:00 AM");
    expect(plain(formatClockRange("2027-03-15T18:30:00Z", "2027-03-15T19:30:00Z", "America/Los_Angeles", true))).toBe("11:30 AM–12:30 PM");
    expect(formatClockRange("2027-03-15T18:30:00Z", "2027-03-15T19:30:00Z", "America/Los_Angeles")).toBe("11:30–12:30");
  });

  it("names the zone as people say it, summer and winter", () => {
    expect(zoneLongName("America/Los_Angeles", "2027-07-01T12:00:00Z")).toBe("Pacific Daylight Time");
    expect(zoneLongName("America/Los_Angeles", "2027-01-01T12:00:00Z")).toBe("Pacific Standard Time");
  });
});
