import { describe, expect, it } from "vitest";
import { byDaySummary, dayWords, heatMapSummary, hourWords, leadTimeSentence, leadWords, rangeWords, weekdaysFrom, weekdayWords, weekStartOf } from "./insights-words";

describe("insights words", () => {
  it("says lead times in hours under 48, else in days", () => {
    expect(leadWords(0.4)).toBe("less than an hour");
    expect(leadWords(1)).toBe("1 hour");
    expect(leadWords(47.4)).toBe("47 hours");
    expect(leadWords(48)).toBe("2 days");
    expect(leadWords(290)).toBe("12 days");
    expect(leadTimeSentence({ median: 50, p90: 290 })).toBe("Guests book a median of 2 days ahead; 9 in 10 within 12 days.");
    expect(leadTimeSentence({ median: null, p90: null })).toBeNull();
  });

  it("writes dates, weekdays and hours in the host's language, with plain spaces", () => {
    expect(dayWords("2026-03-15", "en")).toBe("Mar 15");
    expect(dayWords("2026-03-15", "de", { year: true })).toBe("15. März 2026");
    expect(rangeWords("2026-03-01", "2026-03-30", "en")).toBe("Mar 1 – 30, 2026");
    expect(weekdayWords(0, "en")).toBe("Sun");
    expect(weekdayWords(1, "de", "long")).toBe("Montag");
    expect(hourWords(9, "en")).toBe("9 AM");
    expect(hourWords(15, "de")).toMatch(/^15/);
  });

  it("starts the week as the language's region does", () => {
    expect(weekStartOf("en")).toBe(0);
    expect(weekStartOf("de")).toBe(1);
    expect(weekdaysFrom(1)).toEqual([1, 2, 3, 4, 5, 6, 0]);
  });

  it("sums a chart up in a sentence", () => {
    const insights = {
      from: "2026-03-01",
      to: "2026-03-03",
      timeZone: "UTC",
      totals: { bookings: 5, confirmed: 3, pending: 0, cancelled: 1, rescheduled: 0, noShow: 1 },
      byDay: [
        { date: "2026-03-01", bookings: 1, cancelled: 0, noShow: 0 },
        { date: "2026-03-02", bookings: 4, cancelled: 1, noShow: 1 },
        { date: "2026-03-03", bookings: 0, cancelled: 0, noShow: 0 },
      ],
      byEventType: [],
      byWeekdayHour: [{ weekday: 1, hour: 10, bookings: 3 }],
      leadTimeHours: { median: 5, p90: 30 },
      byHost: [],
    };
    expect(byDaySummary(insights, "en")).toBe("Bookings per day, Mar 1 – 3, 2026: 5 bookings, the most on Mon, Mar 2 (4 bookings); 1 cancelled, 1 no-show.");
    expect(heatMapSummary(insights.byWeekdayHour, "en")).toBe("When bookings start, by weekday and hour: most often on Monday at 10 AM (3 bookings).");
    expect(heatMapSummary([{ weekday: 4, hour: 9, bookings: 1 }, { weekday: 1, hour: 10, bookings: 1 }], "en")).toBe(
      "When bookings start, by weekday and hour: the busiest hours, 1 booking each, are Monday at 10 AM and Thursday at 9 AM.",
    );
    const spread = [0, 1, 2, 3].map((weekday) => ({ weekday, hour: 9, bookings: 2 }));
    expect(heatMapSummary(spread, "en")).toBe("When bookings start, by weekday and hour: no hour stands out, 4 hours of the week have 2 bookings each.");
  });
});
