import { describe, expect, it } from "vitest";
import { expiryWarningAt } from "./request-expiry-warning";

// When a request's hosts are warned that it expires (at its start) unanswered.

const HOUR = 3_600_000;
const made = Date.parse("2031-12-01T12:00:00Z");

describe("expiryWarningAt", () => {
  it.each([
    ["a request made days ahead: 3 h before it expires", 72 * HOUR, 69 * HOUR],
    ["exactly 6 h ahead: 3 h before", 6 * HOUR, 3 * HOUR],
    ["4 h ahead: halfway, 2 h before", 4 * HOUR, 2 * HOUR],
    ["1 h ahead: halfway, 30 min before", HOUR, 0.5 * HOUR],
  ])("%s", (_, left, warnedAfter) => {
    expect(expiryWarningAt(made, made + left)).toBe(made + warnedAfter);
  });

  it("gives no warning to a request made with less than an hour left", () => {
    expect(expiryWarningAt(made, made + HOUR - 1)).toBeUndefined();
    expect(expiryWarningAt(made, made + 10 * 60_000)).toBeUndefined();
  });
});
