import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { isValidDate, MAX_YEAR, MIN_YEAR } from "./instants";

describe("isValidDate", () => {
  it.each([
    ["2027-03-15", true],
    ["2028-02-29", true],
    ["2000-02-29", true],
    ["2027-02-29", false],
    ["2100-02-29", false],
    ["2027-04-31", false],
    ["2027-12-31", true],
    ["2027-13-01", false],
    ["2027-00-10", false],
    ["2027-01-00", false],
    ["1969-12-31", false],
    ["1970-01-01", true],
    ["9999-12-31", true],
    ["10000-01-01", false],
    ["2027-3-15", false],
    ["2027-03-15T00:00", false],
    [" 2027-03-15", false],
    ["２０２７-03-15", false],
  ])("%s → %s", (value, valid) => {
    expect(isValidDate(value)).toBe(valid);
  });

  it("agrees with luxon on every YYYY-MM-DD string", () => {
    const digits = (n: number, max: number) => fc.integer({ min: 0, max }).map((v) => String(v).padStart(n, "0"));
    fc.assert(
      fc.property(digits(4, 9999), digits(2, 99), digits(2, 99), (y, m, d) => {
        const value = `${y}-${m}-${d}`;
        const year = Number(y);
        const expected = year >= MIN_YEAR && year <= MAX_YEAR && DateTime.fromISO(value, { zone: "UTC" }).isValid;
        expect(isValidDate(value)).toBe(expected);
      }),
      { numRuns: 5000 },
    );
  });
});
