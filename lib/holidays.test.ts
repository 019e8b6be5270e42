import { describe, expect, it } from "vitest";
import { isHolidayPlace, publicHolidaysBetween, publicHolidaysOf } from "./holidays";

// The holiday library as the loader reads it: public days only, by the place's own dates, named
// in a language the library has (else the country's).

describe("public holidays", () => {
  it("counts only public days: a US Thanksgiving, not Valentine's or Halloween", () => {
    const names = publicHolidaysOf({ country: "US", region: null }, 2026).map((h) => h.name);
    expect(names).toContain("Thanksgiving Day");
    expect(names).not.toContain("Valentine's Day");
    expect(names).not.toContain("Halloween");
  });

  it("a region adds its own days: Epiphany in Bavaria, not in Berlin", () => {
    const by = publicHolidaysOf({ country: "DE", region: "BY" }, 2027).map((h) => h.date);
    const be = publicHolidaysOf({ country: "DE", region: "BE" }, 2027).map((h) => h.date);
    expect(by).toContain("2027-01-06");
    expect(be).not.toContain("2027-01-06");
  });

  it("names a holiday in the language asked for where the library has it, else the country's own", () => {
    const christmas = (language: string) => publicHolidaysOf({ country: "DE", region: null }, 2026, language).find((h) => h.date === "2026-12-25")?.name;
    expect(christmas("de")).toBe("1. Weihnachtstag");
    expect(christmas("en")).toBe("Christmas Day");
    expect(christmas("fr")).toBe("Noël");
    expect(christmas("xx")).toBe("1. Weihnachtstag");
  });

  it("gives a holiday on a weekend and its substitute Monday as two days off (New Zealand: Boxing Day on a Saturday, 2 January too)", () => {
    const december = publicHolidaysBetween({ country: "NZ", region: null }, "2026-12-01", "2027-01-05").map((h) => h.date);
    expect(december).toEqual(["2026-12-25", "2026-12-26", "2026-12-28", "2027-01-01", "2027-01-02", "2027-01-04"]);
  });

  it("knows which places exist", () => {
    expect(isHolidayPlace({ country: "DE", region: "BY" })).toBe(true);
    expect(isHolidayPlace({ country: "DE", region: "XX" })).toBe(false);
    expect(isHolidayPlace({ country: "ZZ", region: null })).toBe(false);
  });
});
