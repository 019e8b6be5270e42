import { describe, expect, it } from "vitest";
import { bookingRows, seatWords, seriesWords } from "./booking-groups";

const b = (
  id: string,
  startTime: string,
  eventTypeId = "et_1",
  seat: { taken: number; max: number } | null = null,
) => ({ id, startTime, eventType: { id: eventTypeId }, seat });

describe("the bookings page's rows", () => {
  it("makes one row of a start's seats, where its first seat is, and keeps others as they are", () => {
    const rows = bookingRows([
      b("a", "2027-03-15T08:00:00Z"),
      b("s1", "2027-03-15T09:00:00Z", "et_yoga", { taken: 3, max: 10 }),
      b("c", "2027-03-15T09:30:00Z"),
      b("s2", "2027-03-15T09:00:00Z", "et_yoga", { taken: 3, max: 10 }),
      // Another event type's seats at the same start are another row.
      b("t1", "2027-03-15T09:00:00Z", "et_talk", { taken: 1, max: 5 }),
    ]);
    expect(
      rows.map((r) =>
        r.kind === "single"
          ? r.booking.id
          : r.bookings.map((x) => x.id).join("+"),
      ),
    ).toEqual(["a", "s1+s2", "c", "t1"]);
    const seats = rows[1]!;
    expect(seats.kind === "seats" && seatWords(seats.seat)).toBe(
      "3 of 10 seats",
    );
  });
});

describe("a series in words", () => {
  const occurrences = (weeks: number, n: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: `o${i}`,
      startTime: new Date(
        Date.parse("2027-03-01T09:00:00Z") + i * weeks * 7 * 86_400_000,
      ).toISOString(),
    }));

  it("says how often and which session", () => {
    expect(seriesWords("o1", { occurrences: occurrences(1, 4) })).toBe(
      "Weekly · 2 of 4",
    );
    expect(seriesWords("o0", { occurrences: occurrences(2, 6) })).toBe(
      "Every 2 weeks · 1 of 6",
    );
    expect(seriesWords("x", null)).toBeUndefined();
  });

  it("reads whole weeks across a daylight-saving change (an hour less)", () => {
    const series = {
      occurrences: [
        { id: "a", startTime: "2027-03-22T09:00:00Z" },
        { id: "b", startTime: "2027-03-29T08:00:00Z" },
      ],
    };
    expect(seriesWords("b", series)).toBe("Weekly · 2 of 2");
  });
});
