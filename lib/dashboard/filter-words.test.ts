import { describe, expect, it } from "vitest";
import { emptyFilteredWords } from "./filter-words";

describe("emptyFilteredWords", () => {
  it("says every filter in words, dates as people write them", () => {
    expect(emptyFilteredWords("past", { eventTypeId: "evt_1", from: "2027-03-03", to: "2027-03-10", q: "grace" }, "Strategy session")).toBe(
      "No past bookings of “Strategy session” from Mar 3, 2027 to Mar 10, 2027 with a guest whose name or email contains “grace”.",
    );
  });

  it("names one day, an open-ended range, and an event type it cannot name", () => {
    expect(emptyFilteredWords("upcoming", { from: "2027-03-03", to: "2027-03-03" }, undefined)).toBe("No upcoming bookings on Mar 3, 2027.");
    expect(emptyFilteredWords("requests", { from: "2027-03-03" }, undefined)).toBe("No requests from Mar 3, 2027 on.");
    expect(emptyFilteredWords("cancelled", { to: "2027-12-31" }, undefined)).toBe("No cancelled bookings up to Dec 31, 2027.");
    expect(emptyFilteredWords("noShows", { eventTypeId: "evt_gone" }, undefined)).toBe("No no-shows of the chosen event type.");
  });
});
