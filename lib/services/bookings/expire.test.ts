import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Tx } from "@/db";
import { bookingHistory, bookingHosts, bookings, outboxJobs } from "@/db/schema";
import { rollbackDatabase } from "@/tests/support/rollback";
import { at, bookingValues, insertBooking, insertEventType, insertHost, insertTeam } from "@/tests/support/rows";
import { expireUnconfirmedBookings } from "./expire";

// A request (a booking of an event type that needs the host's approval) that nobody answered
// before its start is cancelled by the service's sweep (decisions §16): by the system, with no
// reason, its time freed for every host, a history entry, and one booking.cancelled event in the
// outbox (which tells the guest and the hosts). Answered requests, and requests still ahead, are
// left as they are. The HTTP side of it is tests/integration/booking-approval.test.ts.

const { withRollback } = rollbackDatabase();

const START = at("2031-03-10", "09:00");
const HOUR = 3_600_000;

async function setUp(tx: Tx) {
  const host = await insertHost(tx, { fullName: "Ada Host" });
  const eventType = await insertEventType(tx, host, { requiresConfirmation: true });
  return { host, eventType };
}

const rowOf = async (tx: Tx, id: string) => (await tx.select().from(bookings).where(eq(bookings.id, id)))[0]!;
const outbox = (tx: Tx) => tx.select().from(outboxJobs).orderBy(asc(outboxJobs.id));
const historyOf = (tx: Tx, id: string) => tx.select().from(bookingHistory).where(eq(bookingHistory.bookingId, id)).orderBy(asc(bookingHistory.id));

describe("expireUnconfirmedBookings", () => {
  it("cancels a request unanswered at its start, as the system: its time freed, its history, one booking.cancelled", () =>
    withRollback(async (tx) => {
      const { host, eventType } = await setUp(tx);
      const request = await insertBooking(tx, host, eventType, START, { status: "pending" });

      expect(await expireUnconfirmedBookings(tx, START)).toBe(1);

      expect(await rowOf(tx, request.id)).toMatchObject({ status: "cancelled", cancelledBy: "system", cancellationReason: null, cancelledAt: new Date(START), sequence: 1 });
      expect(await tx.select({ cancelled: bookingHosts.cancelled, status: bookingHosts.status }).from(bookingHosts).where(eq(bookingHosts.bookingId, request.id))).toEqual([
        { cancelled: true, status: "cancelled" },
      ]);
      expect(await historyOf(tx, request.id)).toEqual([
        expect.objectContaining({ action: "cancelled", actor: "system", actorUserId: null, at: new Date(START), details: { reason: null } }),
      ]);
      const jobs = await outbox(tx);
      expect(jobs.map((j) => [j.kind, j.status, j.runAfter.getTime()])).toEqual([["booking.cancelled", "pending", START]]);
      const payload = jobs[0]!.payload as Record<string, any>;
      expect(payload).toMatchObject({ event: "booking.cancelled", bookingId: request.id, hostId: host.id, hostIds: [host.id], sequence: 1, occurredAt: new Date(START).toISOString().replace(".000Z", "Z") });
      expect(payload.data).toEqual({ bookingId: request.id, cancelledBy: "system", hosts: [{ userId: host.id, username: host.username, fullName: "Ada Host" }], team: null, seat: null, series: null });
    }));

  it("leaves a request alone until its start", () =>
    withRollback(async (tx) => {
      const { host, eventType } = await setUp(tx);
      const request = await insertBooking(tx, host, eventType, START, { status: "pending" });
      expect(await expireUnconfirmedBookings(tx, START - 1)).toBe(0);
      expect((await rowOf(tx, request.id)).status).toBe("pending");
      expect(await outbox(tx)).toEqual([]);
      expect(await historyOf(tx, request.id)).toEqual([]);
    }));

  it("leaves answered requests alone: a confirmed one and a declined one stay as the host left them", () =>
    withRollback(async (tx) => {
      const { host, eventType } = await setUp(tx);
      const confirmed = await insertBooking(tx, host, eventType, START);
      const declined = await insertBooking(tx, host, eventType, START + HOUR, {
        status: "cancelled",
        cancelledBy: "host",
        cancellationReason: "Away that morning",
        cancelledAt: new Date(START - 24 * HOUR),
        sequence: 1,
      });

      expect(await expireUnconfirmedBookings(tx, START + 2 * HOUR)).toBe(0);
      expect(await rowOf(tx, confirmed.id)).toEqual(confirmed);
      expect(await rowOf(tx, declined.id)).toEqual(declined);
      expect(await outbox(tx)).toEqual([]);
    }));

  it("cancels each request once, however often it sweeps", () =>
    withRollback(async (tx) => {
      const { host, eventType } = await setUp(tx);
      const request = await insertBooking(tx, host, eventType, START, { status: "pending" });
      expect(await expireUnconfirmedBookings(tx, START)).toBe(1);
      expect(await expireUnconfirmedBookings(tx, START + HOUR)).toBe(0);
      expect((await rowOf(tx, request.id)).cancelledAt).toEqual(new Date(START));
      expect((await outbox(tx)).map((j) => j.kind)).toEqual(["booking.cancelled"]);
      expect(await historyOf(tx, request.id)).toHaveLength(1);
    }));

  it("frees a team request's time for every host and tells every host", () =>
    withRollback(async (tx) => {
      const hosts = [await insertHost(tx, { fullName: "Ann" }), await insertHost(tx, { fullName: "Ben" })];
      const { team, eventType } = await insertTeam(tx, hosts, { schedulingType: "collective", requiresConfirmation: true });
      const request = await insertBooking(tx, hosts, eventType, START, { status: "pending" });

      expect(await expireUnconfirmedBookings(tx, START)).toBe(1);
      expect((await tx.select().from(bookingHosts).where(eq(bookingHosts.bookingId, request.id))).map((h) => [h.userId, h.cancelled]).sort()).toEqual(
        hosts.map((h) => [h.id, true]).sort(),
      );
      const payload = (await outbox(tx))[0]!.payload as Record<string, any>;
      expect(payload.hostIds).toEqual([hosts[0]!.id, hosts[1]!.id]);
      expect(payload.data.team).toEqual({ id: team.id, slug: team.slug, name: team.name });
    }));

  it("cancels every request that is due, however many (more than its batch of 100)", () =>
    withRollback(async (tx) => {
      const { host, eventType } = await setUp(tx);
      await tx.insert(bookings).values(Array.from({ length: 101 }, (_, i) => bookingValues(host, eventType, START - i * HOUR, { status: "pending" })));
      const ahead = await insertBooking(tx, host, eventType, START + HOUR, { status: "pending" });

      expect(await expireUnconfirmedBookings(tx, START)).toBe(101);
      const left = await tx.select({ id: bookings.id }).from(bookings).where(eq(bookings.status, "pending"));
      expect(left).toEqual([{ id: ahead.id }]);
      expect(await outbox(tx)).toHaveLength(101);
    }));
});
