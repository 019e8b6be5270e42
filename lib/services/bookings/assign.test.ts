import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Tx } from "@/db";
import { pgErrorCode } from "@/db/client";
import { availabilityOverrides, bookingHosts, bookings, outboxJobs, type EventTypeRow, type TeamRow, type UserRow } from "@/db/schema";
import { rollbackDatabase } from "@/tests/support/rollback";
import { at, bookingInput, insertBooking, insertEventType, insertHost, insertTeam, openOn } from "@/tests/support/rows";
import { createTeamBooking } from "./create";

// Who takes a team booking (decisions §15), decided by createTeamBooking under the hosts' locks
// (assign.ts): for round robin, among the hosts free at the start, the one with the fewest
// non-cancelled bookings of the type starting in the 30 days before it, then the least recently
// booked (never booked first), then the lowest id; a collective booking needs every host. The
// HTTP side of it is tests/integration/team-bookings.test.ts.

const { withRollback } = rollbackDatabase();

const DAY = "2031-03-10"; // a Monday
const NOW = Date.parse("2031-03-03T08:00:00Z");
const HOUR = 3_600_000;
const DAYS = 24 * HOUR;

/** `n` hosts in UTC, open 09:00–17:00 on DAY, in a team whose event type they host (round robin unless told); `byId` sorted by id. */
async function team(tx: Tx, n: number, fields: Partial<EventTypeRow> = {}) {
  const hosts: UserRow[] = [];
  for (let i = 0; i < n; i++) {
    const host = await insertHost(tx, { fullName: `Host ${i}` });
    await openOn(tx, host, DAY);
    hosts.push(host);
  }
  const { team, eventType } = await insertTeam(tx, hosts, fields);
  const byId = [...hosts].sort((a, b) => (a.id < b.id ? -1 : 1));
  return { hosts, byId, team, eventType };
}

function bookTeam(tx: Tx, team: TeamRow, eventType: EventTypeRow, start: number, now = NOW) {
  return createTeamBooking(tx, { teamSlug: team.slug, slug: eventType.slug, idempotencyKey: randomUUID(), input: bookingInput(start), now });
}

/** The booking's own host and every host of it (booking_hosts), as stored. */
async function stored(tx: Tx, bookingId: string) {
  const [row] = await tx.select().from(bookings).where(eq(bookings.id, bookingId));
  const hosts = await tx.select({ userId: bookingHosts.userId }).from(bookingHosts).where(eq(bookingHosts.bookingId, bookingId));
  return { hostId: row!.hostId, hostIds: hosts.map((h) => h.userId).sort() };
}

/** `count` bookings of the type for `host`, starting `daysBefore` DAY's 09:00 (a day apart), made at `madeAt`. */
async function history(tx: Tx, host: UserRow, eventType: EventTypeRow, count: number, madeAt: number, daysBefore = 3, status: "confirmed" | "cancelled" = "confirmed") {
  for (let i = 0; i < count; i++) {
    await insertBooking(tx, host, eventType, at(DAY, "09:00") - (daysBefore + i) * DAYS, { createdAt: new Date(madeAt), status });
  }
}

async function expectSlotUnavailable(booking: Promise<unknown>) {
  await expect(booking).rejects.toMatchObject({ name: "AppError", code: "slot_unavailable" });
}

describe("round robin", () => {
  it("gives the booking to the host with the fewest recent bookings of the type, even one booked a moment ago", () =>
    withRollback(async (tx) => {
      const { byId, team: t, eventType } = await team(tx, 3);
      const [first, second, third] = byId as [UserRow, UserRow, UserRow];
      await history(tx, first, eventType, 2, NOW - 20 * DAYS);
      await history(tx, second, eventType, 1, NOW - HOUR); // the most recently booked, but the fewest
      await history(tx, third, eventType, 3, NOW - 20 * DAYS);

      const { booking } = await bookTeam(tx, t, eventType, at(DAY, "10:00"));
      expect(await stored(tx, booking.id)).toEqual({ hostId: second.id, hostIds: [second.id] });
      expect(booking.hostNames).toEqual([second.fullName]);
    }));

  it("between hosts with as many bookings, gives it to the one booked least recently", () =>
    withRollback(async (tx) => {
      const { byId, team: t, eventType } = await team(tx, 3);
      const [first, second, third] = byId as [UserRow, UserRow, UserRow];
      await history(tx, first, eventType, 1, NOW - 1 * DAYS);
      await history(tx, second, eventType, 1, NOW - 3 * DAYS);
      await history(tx, third, eventType, 1, NOW - 2 * DAYS);

      const { booking } = await bookTeam(tx, t, eventType, at(DAY, "10:00"));
      expect((await stored(tx, booking.id)).hostId).toBe(second.id);
    }));

  it("between hosts with as many bookings, puts one never booked for the type first", () =>
    withRollback(async (tx) => {
      const { byId, team: t, eventType } = await team(tx, 2);
      const [first, second] = byId as [UserRow, UserRow];
      // Both have no booking in the 30 days before the start; only `first` was ever booked (long ago).
      await history(tx, first, eventType, 1, NOW - 90 * DAYS, 45);

      const { booking } = await bookTeam(tx, t, eventType, at(DAY, "10:00"));
      expect((await stored(tx, booking.id)).hostId).toBe(second.id);
    }));

  it("with nothing else between them, gives it to the lowest id", () =>
    withRollback(async (tx) => {
      const { byId, team: t, eventType } = await team(tx, 3);
      const { booking } = await bookTeam(tx, t, eventType, at(DAY, "10:00"));
      expect((await stored(tx, booking.id)).hostId).toBe(byId[0]!.id);
    }));

  it("counts only bookings of the type starting in the 30 days before the start, and none cancelled", () =>
    withRollback(async (tx) => {
      const { byId, team: t, eventType } = await team(tx, 3);
      const [first, second, third] = byId as [UserRow, UserRow, UserRow];
      const other = await insertEventType(tx, first);
      // `first`: a booking 31 days before, one the day after the start, two cancelled, one of another type. None counts.
      await insertBooking(tx, first, eventType, at(DAY, "09:00") - 31 * DAYS, { createdAt: new Date(NOW - 40 * DAYS) });
      await insertBooking(tx, first, eventType, at(DAY, "09:00") + 1 * DAYS, { createdAt: new Date(NOW - 40 * DAYS) });
      await history(tx, first, eventType, 2, NOW - 40 * DAYS, 3, "cancelled");
      await insertBooking(tx, first, other, at(DAY, "09:00") - 2 * DAYS, { createdAt: new Date(NOW - 40 * DAYS) });
      // `second` and `third`: one booking each, 29 days before the start, made earlier than any of `first`'s.
      await history(tx, second, eventType, 1, NOW - 60 * DAYS, 29);
      await history(tx, third, eventType, 1, NOW - 60 * DAYS, 29);

      const { booking } = await bookTeam(tx, t, eventType, at(DAY, "10:00"));
      expect((await stored(tx, booking.id)).hostId).toBe(first.id);
    }));

  it("spreads bookings made one after another over the hosts in the rule's order", () =>
    withRollback(async (tx) => {
      const { byId, team: t, eventType } = await team(tx, 3);
      const assigned: string[] = [];
      for (const [i, time] of ["09:00", "09:30", "10:00", "10:30", "11:00"].entries()) {
        const { booking } = await bookTeam(tx, t, eventType, at(DAY, time), NOW + i * 60_000);
        assigned.push((await stored(tx, booking.id)).hostId);
      }
      expect(assigned).toEqual([0, 1, 2, 0, 1].map((i) => byId[i]!.id));
    }));

  it("passes over the rule's pick when they are busy then (a booking of their own), or have no hours", () =>
    withRollback(async (tx) => {
      const { byId, team: t, eventType } = await team(tx, 3);
      const [first, second, third] = byId as [UserRow, UserRow, UserRow];
      const own = await insertEventType(tx, first);
      await insertBooking(tx, first, own, at(DAY, "10:00"));
      const ten = await bookTeam(tx, t, eventType, at(DAY, "10:00"));
      expect((await stored(tx, ten.booking.id)).hostId).toBe(second.id);

      // At 18:00 only `third` has hours (the others close at 17:00), though the rule prefers `first`.
      await reopen(tx, third, [["09:00", "20:00"]]);
      const six = await bookTeam(tx, t, eventType, at(DAY, "18:00"));
      expect((await stored(tx, six.booking.id)).hostId).toBe(third.id);
    }));

  it("passes over a host at their daily limit of the type, though the rule would pick them", () =>
    withRollback(async (tx) => {
      const { byId, team: t, eventType } = await team(tx, 2, { limits: { perDay: 1 } });
      const [first, second] = byId as [UserRow, UserRow];
      await history(tx, second, eventType, 2, NOW - 20 * DAYS);
      const nine = await bookTeam(tx, t, eventType, at(DAY, "09:00"));
      expect((await stored(tx, nine.booking.id)).hostId).toBe(first.id);
      // `first` (1) still has fewer than `second` (2), but has had their one booking of the day.
      const ten = await bookTeam(tx, t, eventType, at(DAY, "10:00"));
      expect((await stored(tx, ten.booking.id)).hostId).toBe(second.id);
      await expectSlotUnavailable(bookTeam(tx, t, eventType, at(DAY, "11:00")));
    }));

  it("refuses the start when no host is free, and writes nothing", () =>
    withRollback(async (tx) => {
      const { hosts, team: t, eventType } = await team(tx, 2);
      for (const host of hosts) await insertBooking(tx, host, await insertEventType(tx, host), at(DAY, "10:00"));
      await expectSlotUnavailable(bookTeam(tx, t, eventType, at(DAY, "10:00")));
      expect(await tx.select().from(bookings).where(eq(bookings.eventTypeId, eventType.id))).toEqual([]);
      expect(await tx.select().from(outboxJobs).where(eq(outboxJobs.kind, "booking.created"))).toEqual([]);
    }));
});

/** Gives `host` other hours on DAY (the override replaced). */
async function reopen(tx: Tx, host: UserRow, hours: [string, string][]) {
  await tx.delete(availabilityOverrides).where(eq(availabilityOverrides.userId, host.id));
  await openOn(tx, host, DAY, hours);
}

describe("collective", () => {
  it("books every host at once, the event type's first host as the booking's own, and blocks each of them", () =>
    withRollback(async (tx) => {
      const { hosts, team: t, eventType } = await team(tx, 3, { schedulingType: "collective" });
      const { booking } = await bookTeam(tx, t, eventType, at(DAY, "10:00"));
      expect(await stored(tx, booking.id)).toEqual({ hostId: hosts[0]!.id, hostIds: hosts.map((h) => h.id).sort() });
      expect(booking.hostNames).toEqual(hosts.map((h) => h.fullName));
      const [event] = await tx.select().from(outboxJobs).where(eq(outboxJobs.kind, "booking.created"));
      expect((event!.payload as { hostIds: string[] }).hostIds).toEqual(hosts.map((h) => h.id));

      // Each host's time is taken, not only the booking's own host's: the database refuses the
      // last host a personal booking at 10:00 (the exclusion constraint of booking_hosts).
      const other = await insertEventType(tx, hosts[2]!);
      const clash = tx.transaction((sp) => insertBooking(sp, hosts[2]!, other, at(DAY, "10:00")));
      expect(await clash.then(() => "inserted", pgErrorCode)).toBe("23P01");
    }));

  it("refuses a start one host is not free for (busy, or without hours then), and books nobody", () =>
    withRollback(async (tx) => {
      const { hosts, team: t, eventType } = await team(tx, 3, { schedulingType: "collective" });
      await insertBooking(tx, hosts[1]!, await insertEventType(tx, hosts[1]!), at(DAY, "10:15"));
      await expectSlotUnavailable(bookTeam(tx, t, eventType, at(DAY, "10:00")));
      // The last host's hours begin at 12:00: nothing in the database would stop an 11:00 booking of them.
      await reopen(tx, hosts[2]!, [["12:00", "17:00"]]);
      await expectSlotUnavailable(bookTeam(tx, t, eventType, at(DAY, "11:00")));
      expect(await tx.select().from(bookings).where(eq(bookings.eventTypeId, eventType.id))).toEqual([]);
      // A start they all have is booked.
      const { booking } = await bookTeam(tx, t, eventType, at(DAY, "12:00"));
      expect((await stored(tx, booking.id)).hostIds).toHaveLength(3);
    }));
});
