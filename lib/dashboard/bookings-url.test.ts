import { describe, expect, it } from "vitest";
import { bookingsSearch, rangeIsReversed, readBookingsState } from "./bookings-url";

const read = (query: string) => readBookingsState(new URLSearchParams(query));

describe("the bookings page's address", () => {
  it("round-trips the view, the page and every filter", () => {
    const state = { view: "past" as const, page: 3, eventTypeId: "evt_abc-1", from: "2027-03-01", to: "2027-03-31", q: "grace hopper" };
    expect(read(bookingsSearch(state).slice(1))).toEqual(state);
  });

  it("is empty for the first page of upcoming, unfiltered", () => {
    expect(bookingsSearch(read(""))).toBe("");
    expect(read("")).toEqual({ view: "upcoming", page: 1, eventTypeId: undefined, from: undefined, to: undefined, q: undefined });
  });

  it("leaves out what a hand-edited address gets wrong", () => {
    expect(read("view=everything&page=-2&eventType=a%20b&from=2027-02-30&to=tomorrow&q=%20%00%20")).toEqual(read(""));
    expect(read("page=1.5").page).toBe(1);
    expect(read(`q=${"x".repeat(300)}`).q).toHaveLength(200);
    expect(read("view=toString").view).toBe("upcoming");
  });

  it("takes the defaults it is given (a booking an email links to opens on its own view and page)", () => {
    expect(readBookingsState(new URLSearchParams(""), { view: "cancelled", page: 2 })).toMatchObject({ view: "cancelled", page: 2 });
  });

  it("knows a reversed range", () => {
    expect(rangeIsReversed({ from: "2027-03-10", to: "2027-03-01" })).toBe(true);
    expect(rangeIsReversed({ from: "2027-03-01", to: "2027-03-01" })).toBe(false);
    expect(rangeIsReversed({ to: "2027-03-01" })).toBe(false);
  });
});

describe("a search in the address", () => {
  it("is cut to 200 characters without splitting a character, lone surrogates left out", () => {
    const q = read(`q=${"x".repeat(199)}${encodeURIComponent("😀")}`).q!;
    expect(q).toBe("x".repeat(199));
    const raw = { get: (name: string) => (name === "q" ? "a\uD800b" : null) };
    expect(readBookingsState(raw).q).toBe("ab");
  });
});
