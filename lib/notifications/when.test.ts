import { describe, expect, it } from "vitest";
import { dayOf, rangeOf } from "./when";

describe("times in the reader's zone", () => {
  const start = Date.parse("2027-03-15T13:00:00Z");
  const end = Date.parse("2027-03-15T13:30:00Z");

  it("writes one instant differently for each reader, in words", () => {
    expect(rangeOf(start, end, "Europe/Berlin")).toBe("Monday, March 15, 2027, 2:00 – 2:30 PM (Europe/Berlin)");
    expect(rangeOf(start, end, "America/New_York")).toBe("Monday, March 15, 2027, 9:00 – 9:30 AM (America/New_York)");
    expect(rangeOf(start, end, "Asia/Kolkata")).toBe("Monday, March 15, 2027, 6:30 – 7:00 PM (Asia/Kolkata)");
    expect(dayOf(start, "Pacific/Kiritimati")).toBe("Tuesday, March 16, 2027");
  });

  it("names both halves of the day, or both days, when the range crosses them", () => {
    expect(rangeOf(Date.parse("2027-03-15T11:30:00Z"), Date.parse("2027-03-15T12:30:00Z"), "UTC")).toBe(
      "Monday, March 15, 2027, 11:30 AM – 12:30 PM (UTC)",
    );
    expect(rangeOf(Date.parse("2027-03-15T23:30:00Z"), Date.parse("2027-03-16T00:30:00Z"), "UTC")).toBe(
      "Monday, March 15, 2027, 11:30 PM – Tuesday, March 16, 2027, 12:30 AM (UTC)",
    );
  });
});
