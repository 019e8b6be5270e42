import { describe, expect, it } from "vitest";
import type { SlotInput, WeeklyRule } from "./index";
import { combineHostSlots, computeTeamSlots, pickRoundRobinHost } from "./team";

// Team slots (decisions §15) worked out by hand from the zones' offsets:
//   America/New_York  EDT -04:00 until 2026-11-01 02:00 local, then EST -05:00
//   Europe/Berlin     CET +01:00 from 2026-10-25 (CEST +02:00 before)
//   Asia/Kolkata      +05:30 all year
// In the week of 2026-10-26 the two clocks of the Atlantic are 5 hours apart, from 2026-11-02 six.

const hm = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
const weekdays = (from: string, to: string): WeeklyRule[] => [1, 2, 3, 4, 5].map((dayOfWeek) => ({ dayOfWeek, startMinute: hm(from), endMinute: hm(to) }));

function host(timeZone: string, hours: [string, string], busy: [string, string][] = []): SlotInput {
  return {
    now: Date.parse("2026-10-01T00:00:00Z"),
    host: { timeZone, minNoticeHours: 0, maxAdvanceDays: 365 },
    weeklyRules: weekdays(...hours),
    overrides: [],
    eventType: { durationMinutes: 30, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, slotIntervalMinutes: null },
    busy: busy.map(([s, e]) => ({ start: Date.parse(s), end: Date.parse(e) })),
    // The guest's day in UTC: every host's slots of that UTC day.
    range: { from: "2026-10-28", to: "2026-10-28", timeZone: "UTC" },
  };
}
const on = (date: string, input: SlotInput): SlotInput => ({ ...input, range: { from: date, to: date, timeZone: "UTC" } });
const starts = (slots: { start: number }[]) => slots.map((s) => new Date(s.start).toISOString().slice(11, 16));

describe("team slots", () => {
  const ny = host("America/New_York", ["09:00", "17:00"]);
  const berlin = host("Europe/Berlin", ["09:00", "17:00"]);

  it("collective: only the times both are free, across a week in which one zone changed its clocks", () => {
    // Wed 2026-10-28: Berlin 09–17 CET = 08–16Z; New York 09–17 EDT = 13–21Z; together 13–16Z.
    const together = computeTeamSlots("collective", [
      { hostId: "ny", input: ny },
      { hostId: "berlin", input: berlin },
    ]);
    expect(starts(together)).toEqual(["13:00", "13:30", "14:00", "14:30", "15:00", "15:30"]);
    expect(together.every((s) => s.hostIds.join() === "ny,berlin")).toBe(true);
    // Wed 2026-11-04, New York on EST: 09–17 = 14–22Z; together 14–16Z.
    const later = computeTeamSlots("collective", [
      { hostId: "ny", input: on("2026-11-04", ny) },
      { hostId: "berlin", input: on("2026-11-04", berlin) },
    ]);
    expect(starts(later)).toEqual(["14:00", "14:30", "15:00", "15:30"]);
  });

  it("round robin: every time at least one is free, each naming who is", () => {
    const any = computeTeamSlots("round_robin", [
      { hostId: "ny", input: ny },
      { hostId: "berlin", input: berlin },
    ]);
    // 08–21Z in half hours: Berlin alone 08–13Z, both 13–16Z, New York alone 16–21Z.
    expect(any).toHaveLength(26);
    expect(starts(any)[0]).toBe("08:00");
    expect(starts(any).at(-1)).toBe("20:30");
    const who = (hhmm: string) => any.find((s) => starts([s])[0] === hhmm)!.hostIds;
    expect(who("08:00")).toEqual(["berlin"]);
    expect(who("13:00")).toEqual(["ny", "berlin"]);
    expect(who("16:00")).toEqual(["ny"]);
  });

  it("a host's busy time takes only that host out; a half-hour zone keeps its own grid", () => {
    const busyBerlin = host("Europe/Berlin", ["09:00", "17:00"], [["2026-10-28T13:00:00Z", "2026-10-28T14:00:00Z"]]);
    const together = computeTeamSlots("collective", [
      { hostId: "ny", input: ny },
      { hostId: "berlin", input: busyBerlin },
    ]);
    expect(starts(together)).toEqual(["14:00", "14:30", "15:00", "15:30"]);
    const rr = computeTeamSlots("round_robin", [
      { hostId: "ny", input: ny },
      { hostId: "berlin", input: busyBerlin },
    ]);
    expect(rr.find((s) => starts([s])[0] === "13:00")!.hostIds).toEqual(["ny"]);
    // Kolkata 09:00–11:00 IST = 03:30–05:30Z: starts on the half hour of UTC, none shared with Berlin's.
    const kolkata = host("Asia/Kolkata", ["09:00", "11:00"]);
    expect(starts(computeTeamSlots("round_robin", [{ hostId: "in", input: kolkata }]))).toEqual(["03:30", "04:00", "04:30", "05:00"]);
    expect(computeTeamSlots("collective", [
      { hostId: "in", input: kolkata },
      { hostId: "berlin", input: berlin },
    ])).toEqual([]);
  });

  it("no hosts, no slots; one host is that host's own slots", () => {
    expect(combineHostSlots("round_robin", [])).toEqual([]);
    expect(combineHostSlots("collective", [])).toEqual([]);
    const alone = computeTeamSlots("collective", [{ hostId: "ny", input: ny }]);
    expect(starts(alone)).toHaveLength(16);
  });
});

describe("round-robin assignment", () => {
  it("fewest recent bookings, then least recently booked (never first), then the lowest userId", () => {
    expect(pickRoundRobinHost([])).toBeUndefined();
    expect(
      pickRoundRobinHost([
        { userId: "u1", recentBookings: 3, lastBookedAt: 1 },
        { userId: "u2", recentBookings: 2, lastBookedAt: 9 },
      ]),
    ).toBe("u2");
    expect(
      pickRoundRobinHost([
        { userId: "u1", recentBookings: 2, lastBookedAt: 9 },
        { userId: "u2", recentBookings: 2, lastBookedAt: 5 },
      ]),
    ).toBe("u2");
    expect(
      pickRoundRobinHost([
        { userId: "u1", recentBookings: 0, lastBookedAt: 5 },
        { userId: "u3", recentBookings: 0, lastBookedAt: undefined },
      ]),
    ).toBe("u3");
    expect(
      pickRoundRobinHost([
        { userId: "u3", recentBookings: 0, lastBookedAt: undefined },
        { userId: "u2", recentBookings: 0, lastBookedAt: undefined },
      ]),
    ).toBe("u2");
  });

  it("thirty bookings over three always-free hosts, assigned one after another, land ten each", () => {
    const hosts = ["u1", "u2", "u3"].map((userId) => ({ userId, recentBookings: 0, lastBookedAt: undefined as number | undefined }));
    for (let i = 0; i < 30; i++) {
      const chosen = pickRoundRobinHost(hosts)!;
      const h = hosts.find((x) => x.userId === chosen)!;
      h.recentBookings += 1;
      h.lastBookedAt = i;
    }
    expect(hosts.map((h) => h.recentBookings)).toEqual([10, 10, 10]);
  });
});
