import { describe, expect, it } from "vitest";
import { checkForm } from "./resolver";
import { longDay, NEW_OUT_OF_OFFICE, outOfOfficeBody, outOfOfficeRules, periodWords } from "./time-off";

describe("the Time off form (decisions §21)", () => {
  it("sends null for an empty note or colleague, trimmed words otherwise", () => {
    expect(outOfOfficeBody({ startDate: "2027-03-15", endDate: "2027-03-19", note: "  ", redirectUsername: "" })).toEqual({
      startDate: "2027-03-15",
      endDate: "2027-03-19",
      note: null,
      redirectUsername: null,
    });
    expect(outOfOfficeBody({ startDate: "2027-03-15", endDate: "2027-03-15", note: " Away ", redirectUsername: " ana " })).toMatchObject({ note: "Away", redirectUsername: "ana" });
  });

  it("says in the page's words what is missing or wrong, at the field the API would name", async () => {
    expect(await checkForm(outOfOfficeRules, NEW_OUT_OF_OFFICE)).toEqual({ startDate: "Choose the first day you are away.", endDate: "Choose the last day you are away." });
    expect(await checkForm(outOfOfficeRules, { ...NEW_OUT_OF_OFFICE, startDate: "2027-03-15", endDate: "2027-03-14" })).toEqual({ endDate: "Must be on or after the start date" });
    expect(await checkForm(outOfOfficeRules, { ...NEW_OUT_OF_OFFICE, startDate: "2027-03-15", endDate: "2028-03-15" })).toEqual({
      endDate: expect.stringMatching(/at most 365 days/),
    });
    expect(await checkForm(outOfOfficeRules, { ...NEW_OUT_OF_OFFICE, startDate: "2027-03-15", endDate: "2027-03-15", note: "x".repeat(501) })).toEqual({
      note: "Must be at most 500 characters",
    });
    expect(await checkForm(outOfOfficeRules, { ...NEW_OUT_OF_OFFICE, startDate: "2027-03-15", endDate: "2027-03-15" })).toEqual({});
  });

  it("writes periods as days, never ISO strings, whatever the reader's zone", () => {
    expect(periodWords("2026-11-30", "2026-12-06")).toBe("Mon, Nov 30 – Sun, Dec 6, 2026");
    expect(periodWords("2026-12-28", "2027-01-03")).toBe("Mon, Dec 28, 2026 – Sun, Jan 3, 2027");
    expect(periodWords("2027-03-15", "2027-03-15")).toBe("Mon, Mar 15, 2027");
    expect(longDay("2026-12-07")).toBe("Monday, December 7");
  });
});
