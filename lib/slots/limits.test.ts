import { describe, expect, it } from "vitest";
import { computeSlots, isOfferedSlot, toSlotDtos, type SlotInput } from "./index";
import { explainSlot } from "./explain";

// Booking limits (decisions §16), table-driven. Every instant below was worked out by hand:
//   America/New_York  EST -05:00 until 2027-03-14 02:00→03:00, then EDT -04:00
//   Europe/Berlin     CET +01:00 until 2027-03-28 02:00→03:00, then CEST +02:00
// ISO weeks run Monday to Sunday in the host's zone: 2027-03-08 and 2027-03-22 are Mondays.

/** Open every day 09:00–12:00, one-hour meetings: three slots a day. */
function input(tz: string, from: string, to: string, limits: SlotInput["limits"]): SlotInput {
  return {
    now: Date.parse("2027-01-01T00:00:00Z"),
    host: { timeZone: tz, minNoticeHours: 0, maxAdvanceDays: 3650 },
    weeklyRules: [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startMinute: 9 * 60, endMinute: 12 * 60 })),
    overrides: [],
    eventType: { durationMinutes: 60, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, slotIntervalMinutes: null },
    busy: [],
    ...(limits ? { limits } : {}),
    range: { from, to, timeZone: tz },
  };
}

/** The host's local dates that offer slots, each with how many. */
function perDate(i: SlotInput): Record<string, number> {
  const out: Record<string, number> = {};
  for (const d of toSlotDtos(computeSlots(i), i.host.timeZone)) out[d.displayStart.slice(0, 10)] = (out[d.displayStart.slice(0, 10)] ?? 0) + 1;
  return out;
}

const week = (first: string, counts: number[]) =>
  Object.fromEntries(counts.flatMap((n, i) => (n === 0 ? [] : [[new Date(Date.parse(`${first}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10), n]])));

const at = (iso: string) => Date.parse(iso);

describe("limits: a full local day or ISO week offers nothing", () => {
  it.each<[string, string, string, string, SlotInput["limits"], Record<string, number>]>([
    ["no limits: three a day", "America/New_York", "2027-03-08", "2027-03-10", undefined, week("2027-03-08", [3, 3, 3])],
    ["limits without bookings change nothing", "America/New_York", "2027-03-08", "2027-03-10", { perDay: 1, perWeek: 1, booked: [] }, week("2027-03-08", [3, 3, 3])],
    [
      "perDay 2: Tuesday holds two, so Tuesday is full",
      "America/New_York",
      "2027-03-08",
      "2027-03-10",
      { perDay: 2, booked: [at("2027-03-09T14:00:00Z"), at("2027-03-09T16:00:00Z")] },
      week("2027-03-08", [3, 0, 3]),
    ],
    [
      "perDay 2 with one booking: the day stays open",
      "America/New_York",
      "2027-03-08",
      "2027-03-10",
      { perDay: 2, booked: [at("2027-03-09T14:00:00Z")] },
      week("2027-03-08", [3, 3, 3]),
    ],
    [
      // 2027-03-09T04:30Z is Monday 23:30 in New York: Monday's, though Tuesday in UTC.
      "perDay 1 counts the host's local day, not UTC's",
      "America/New_York",
      "2027-03-08",
      "2027-03-10",
      { perDay: 1, booked: [at("2027-03-09T04:30:00Z")] },
      week("2027-03-08", [0, 3, 3]),
    ],
    [
      "the same instant in Berlin is Tuesday 05:30",
      "Europe/Berlin",
      "2027-03-08",
      "2027-03-10",
      { perDay: 1, booked: [at("2027-03-09T04:30:00Z")] },
      week("2027-03-08", [3, 0, 3]),
    ],
    [
      // Mon 03-08 10:00 EST and Sun 03-14 23:30 EDT (03-15T03:30Z): both in the week of the spring DST change.
      "perWeek 2 across New York's DST week: that week full, the next open",
      "America/New_York",
      "2027-03-08",
      "2027-03-21",
      { perWeek: 2, booked: [at("2027-03-08T15:00:00Z"), at("2027-03-15T03:30:00Z")] },
      week("2027-03-15", [3, 3, 3, 3, 3, 3, 3]),
    ],
    [
      // Sun 03-21 23:30 CET (22:30Z) is the week before; Mon 03-29 00:30 CEST (03-28T22:30Z) the week after.
      "perWeek 1 across Berlin's DST week: bookings just outside it do not count for it",
      "Europe/Berlin",
      "2027-03-22",
      "2027-03-28",
      { perWeek: 1, booked: [at("2027-03-21T22:30:00Z"), at("2027-03-28T22:30:00Z")] },
      week("2027-03-22", [3, 3, 3, 3, 3, 3, 3]),
    ],
    [
      // Sun 03-28 23:30 CEST is 21:30Z: inside the week that began Mon 03-22.
      "perWeek 1 in Berlin's DST week, booked on its last evening: the whole week is full",
      "Europe/Berlin",
      "2027-03-22",
      "2027-03-29",
      { perWeek: 1, booked: [at("2027-03-28T21:30:00Z")] },
      week("2027-03-29", [3]),
    ],
    [
      "perDay and perWeek together: the day's limit and the week's each close what they fill",
      "Europe/Berlin",
      "2027-03-22",
      "2027-03-28",
      { perDay: 1, perWeek: 3, booked: [at("2027-03-22T09:00:00Z"), at("2027-03-23T09:00:00Z")] },
      week("2027-03-22", [0, 0, 3, 3, 3, 3, 3]),
    ],
    [
      // Sun 03-07 23:00 EST (03-08T04:00Z) belongs to the week before; Tue 03-09 07:00 EST to this one.
      "perWeek 2, the same two instants: in New York one falls in the week before, so the week stays open",
      "America/New_York",
      "2027-03-08",
      "2027-03-14",
      { perWeek: 2, booked: [at("2027-03-08T04:00:00Z"), at("2027-03-09T12:00:00Z")] },
      week("2027-03-08", [3, 3, 3, 3, 3, 3, 3]),
    ],
    [
      // In Berlin they are Mon 03-08 05:00 CET and Tue 03-09 13:00 CET: both in the week of 2027-03-08.
      "…and in Berlin both fall in the week of 2027-03-08: it is full",
      "Europe/Berlin",
      "2027-03-08",
      "2027-03-14",
      { perWeek: 2, booked: [at("2027-03-08T04:00:00Z"), at("2027-03-09T12:00:00Z")] },
      {},
    ],
  ])("%s", (_, tz, from, to, limits, expected) => {
    expect(perDate(input(tz, from, to, limits))).toEqual(expected);
  });
});

describe("the booking's re-check and the explainer follow the same rule", () => {
  const full = input("America/New_York", "2027-03-09", "2027-03-09", { perDay: 2, booked: [at("2027-03-09T14:00:00Z"), at("2027-03-09T16:00:00Z")] });
  const free = Date.parse("2027-03-09T15:00:00Z"); // Tue 10:00 EST, not itself booked

  it("isOfferedSlot refuses a start on a full day, and takes it without the limit", () => {
    expect(isOfferedSlot(full, free)).toBe(false);
    expect(isOfferedSlot({ ...full, limits: { perDay: 3, booked: full.limits!.booked } }, free)).toBe(true);
  });

  it("explains limit_reached with the period, the limit and the count", () => {
    const rest = { ...full, range: undefined };
    expect(explainSlot({ ...rest, busy: [], isActive: true }, free)).toEqual({
      bookable: false,
      reasons: [{ code: "limit_reached", period: "day", limit: 2, count: 2, from: "2027-03-09", to: "2027-03-09" }],
    });
    const weekly = { ...rest, limits: { perWeek: 2, booked: full.limits!.booked }, busy: [], isActive: true };
    expect(explainSlot(weekly, Date.parse("2027-03-12T15:00:00Z")).reasons).toEqual([
      { code: "limit_reached", period: "week", limit: 2, count: 2, from: "2027-03-08", to: "2027-03-14" },
    ]);
  });
});
