import { describe, expect, it } from "vitest";
import { bookingsCsvHref, insightsHref, quickRange, quickRangeOf, readInsightsFilter } from "./insights-filter";

const today = "2026-03-30";

describe("the Insights page's filter", () => {
  it("defaults to the last 30 days up to today", () => {
    expect(readInsightsFilter({}, today)).toEqual({ filter: { from: "2026-03-01", to: today }, refused: false });
  });

  it("reads the address's dates, event type and team", () => {
    const read = readInsightsFilter({ from: "2026-01-01", to: "2026-01-31", eventTypeId: "evt_1", teamId: ["team_1", "team_2"] }, today);
    expect(read).toEqual({ filter: { from: "2026-01-01", to: "2026-01-31", eventTypeId: "evt_1", teamId: "team_1" }, refused: false });
  });

  it("shows the last 30 days, keeping the other choices, for dates the API would refuse", () => {
    expect(readInsightsFilter({ from: "2026-02-30", eventTypeId: "evt_1" }, today)).toEqual({ filter: { from: "2026-03-01", to: today, eventTypeId: "evt_1" }, refused: true });
    expect(readInsightsFilter({ from: "2026-03-10", to: "2026-03-01" }, today).refused).toBe(true);
    expect(readInsightsFilter({ from: "2024-01-01", to: "2026-01-01" }, today).refused).toBe(true);
  });

  it("offers quick ranges ending today and knows which one a view is", () => {
    expect(quickRange("7", today)).toEqual({ from: "2026-03-24", to: today });
    expect(quickRange("year", today)).toEqual({ from: "2026-01-01", to: today });
    expect(quickRange("next30", today)).toEqual({ from: today, to: "2026-04-28" });
    expect(quickRangeOf({ from: today, to: "2026-04-28" }, today)).toBe("next30");
    expect(quickRangeOf({ from: "2025-12-31", to: today }, today)).toBe("90");
    expect(quickRangeOf({ from: "2026-03-02", to: today }, today)).toBeUndefined();
  });

  it("links the page and the CSV with the filters each understands", () => {
    expect(insightsHref({ from: "2026-03-01", to: today, teamId: "team_1" })).toBe("/dashboard/insights?from=2026-03-01&to=2026-03-30&teamId=team_1");
    expect(bookingsCsvHref({ from: "2026-03-01", to: today, eventTypeId: "evt_1" })).toEqual({
      href: "/api/v1/me/bookings?format=csv&eventTypeId=evt_1&from=2026-03-01&to=2026-03-30",
      teamIgnored: false,
    });
    expect(bookingsCsvHref({ from: "2026-03-01", to: today, teamId: "team_1" }).teamIgnored).toBe(true);
  });
});
