import { randomUUID } from "node:crypto";
import { and, eq, ne } from "drizzle-orm";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { getDatabase, setDatabase } from "@/lib/store/database";
import { openPostgres } from "@/db/client";
import { bookings, seatCounts } from "@/db/schema";
import { seatKeyOf } from "@/lib/services/host-time/load";
import { api } from "../support/api";
import { book, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";

const test = withTestDatabase();
const onPostgres = process.env.TEST_DB === "postgres";

// Seats and series under a crowd (decisions §19). On PostgreSQL every request runs on a
// connection of its own, so the transactions truly overlap; PGlite serialises them and checks the
// same outcome through the engine's re-check.

/** Runs `work` with the process database swapped for a pool of `n` connections on PostgreSQL. */
async function onWidePool<T>(n: number, work: () => Promise<T>): Promise<T> {
  const shared = test.current();
  const wide = onPostgres ? await openPostgres(process.env.TEST_DATABASE_URL!, { max: n }) : undefined;
  if (!wide) return work();
  setDatabase(wide);
  try {
    // Open every connection first, so each request really gets its own.
    await Promise.all(Array.from({ length: n }, () => wide.db.execute("select pg_sleep(0.05)")));
    return await work();
  } finally {
    setDatabase(shared);
    await wide.close();
  }
}

async function liveBookings(hostId: string) {
  return (await getDatabase()).db
    .select()
    .from(bookings)
    .where(and(eq(bookings.hostId, hostId), ne(bookings.status, "cancelled")));
}

describe("seats under a crowd", () => {
  it("50 guests at once on one 10-seat start: exactly 10 seats, 40 × 409, the count 10", async () => {
    const host = await createHost();
    const et = await createEventType(host, { slug: "class", durationMinutes: 60, seats: { max: 10, showRemaining: true } });
    const date = dateIn(4, host.timezone);
    await openOnly(host, date);
    const [slot] = await getSlots(host, et.slug, date);
    const results = await onWidePool(50, () => Promise.all(Array.from({ length: 50 }, () => book(host, et.slug, slot!.startTime))));
    const unexpected = results.filter((r) => r.status !== 201 && r.status !== 409).map((r) => r.body);
    expect(unexpected, JSON.stringify(unexpected)).toEqual([]);
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error === "slot_unavailable")).toBe(true);
    for (const r of results.filter((r) => r.status === 201)) expect(r.body.seat.taken).toBeLessThanOrEqual(10);
    expect(new Set(results.filter((r) => r.status === 201).map((r) => r.body.seat.taken)).size).toBe(10);
    expect(await liveBookings(host.id)).toHaveLength(10);
    const [count] = await (await getDatabase()).db.select().from(seatCounts).where(eq(seatCounts.seatKey, seatKeyOf(et.id, Date.parse(slot!.startTime))));
    expect(count!.taken).toBe(10);
  });

  it("a seated start and another event type racing for the host's time: never both", async () => {
    for (let round = 0; round < 3; round++) {
      const host = await createHost();
      const seated = await createEventType(host, { slug: "class", durationMinutes: 60, seats: { max: 5, showRemaining: true } });
      const single = await createEventType(host, { slug: "call", durationMinutes: 30 });
      const date = dateIn(4, host.timezone);
      await openOnly(host, date);
      const [slot] = await getSlots(host, seated.slug, date);
      const results = await onWidePool(12, () =>
        Promise.all(Array.from({ length: 12 }, (_, i) => book(host, i % 2 === 0 ? seated.slug : single.slug, slot!.startTime))),
      );
      expect(results.filter((r) => r.status !== 201 && r.status !== 409)).toEqual([]);
      const stored = await liveBookings(host.id);
      const types = new Set(stored.map((b) => b.eventTypeId));
      expect(types.size, `round ${round}: ${stored.length} bookings of ${[...types].join(", ")}`).toBe(1);
      // Six guests ask for the five seats: all five are taken, or the single booking holds the time alone.
      expect(stored.length).toBe(types.has(single.id) ? 1 : 5);
    }
  });

  it("the database alone holds max: seats written past every check, at once, stop at max", async () => {
    const host = await createHost();
    const et = await createEventType(host, { slug: "class", durationMinutes: 60, seats: { max: 5, showRemaining: true } });
    const start = new Date(Date.UTC(2031, 0, 6, 9));
    const end = new Date(start.getTime() + 3_600_000);
    const { insertBookingOrConflict } = await import("@/lib/services/bookings/store");
    const seat = (i: number) => ({
      id: `bkg_${randomUUID()}`,
      hostId: host.id,
      eventTypeId: et.id,
      status: "confirmed" as const,
      startTime: start,
      endTime: end,
      blockedStart: start,
      blockedEnd: end,
      guestName: `G${i}`,
      guestEmail: `g${i}@example.com`,
      guestTimezone: "UTC",
      cancelTokenHash: randomUUID(),
      seatKey: seatKeyOf(et.id, start.getTime()),
    });
    const outcomes = await onWidePool(20, async () => {
      const { db } = await getDatabase();
      return Promise.allSettled(Array.from({ length: 20 }, (_, i) => db.transaction((tx) => insertBookingOrConflict(tx, seat(i)))));
    });
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(5);
    for (const o of outcomes) if (o.status === "rejected") expect(o.reason).toMatchObject({ code: "slot_unavailable" });
    expect(await liveBookings(host.id)).toHaveLength(5);
    // Another seat key over the same time (another start's seats, or a booking alone) is refused too.
    const other = { ...seat(99), seatKey: null };
    await expect((await getDatabase()).db.transaction((tx) => insertBookingOrConflict(tx, other))).rejects.toMatchObject({ code: "slot_unavailable" });
  });
});

describe("series under a crowd", () => {
  async function weeklyHost(): Promise<{ host: TestHost; slug: string; first: string }> {
    const host = await createHost({ timezone: "Europe/Berlin" });
    const weeklyRules = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: "09:00", endTime: "12:00" }));
    await api.put("/me/availability", { minNoticeHours: 0, maxAdvanceDays: 60, weeklyRules, dateOverrides: [] }, { token: host.token });
    const et = await createEventType(host, { slug: "weekly", durationMinutes: 60, recurrence: { everyWeeks: 1, maxOccurrences: 8 } });
    const date = DateTime.now().setZone("Europe/Berlin").plus({ days: 3 }).toISODate()!;
    const [first] = await getSlots(host, et.slug, date);
    return { host, slug: et.slug, first: first!.startTime };
  }

  it("two guests booking overlapping series at once: one wins whole, the other gets 409 naming the occurrences", async () => {
    for (let round = 0; round < 3; round++) {
      const { host, slug, first } = await weeklyHost();
      // The second series starts a week later: they share three weeks.
      const second = DateTime.fromISO(first).plus({ weeks: 1 }).toUTC().toISO({ suppressMilliseconds: true })!;
      const [a, b] = await onWidePool(2, () => Promise.all([book(host, slug, first, { occurrences: 4 }), book(host, slug, second, { occurrences: 4 })]));
      const statuses = [a!.status, b!.status].sort();
      expect(statuses, JSON.stringify([a!.body, b!.body])).toEqual([201, 409]);
      const [won, lost] = a!.status === 201 ? [a!, b!] : [b!, a!];
      const wonStarts: string[] = won.body.series.occurrences.map((o: { startTime: string }) => o.startTime);
      expect(lost.body.error).toBe("slot_unavailable");
      expect(lost.body.details.unavailable.length).toBe(3);
      for (const at of lost.body.details.unavailable) expect(wonStarts).toContain(at);
      // Never a part of the losing series: exactly the winner's four.
      expect((await liveBookings(host.id)).map((r) => r.startTime.toISOString().replace(".000Z", "Z")).sort()).toEqual(wonStarts);
    }
  });
});

describe("on PostgreSQL", () => {
  it.runIf(!onPostgres && process.env.CI === "true")("CI=true runs these races on PostgreSQL too", () => {
    if (!process.env.TEST_DATABASE_URL) expect.fail("CI=true requires TEST_DATABASE_URL: the seats' races must run on PostgreSQL");
  });
});
