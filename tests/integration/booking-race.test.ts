import { randomUUID } from "node:crypto";
import { and, eq, ne, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDatabase, setDatabase } from "@/lib/store/database";
import { openPostgres } from "@/db/client";
import { bookingHosts, bookings, eventTypes } from "@/db/schema";
import { api } from "../support/api";
import { book, clientHeaders, dateIn, getSlots, guest, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost } from "../support/factories";
import { teamWithType } from "../support/teams";

const test = withTestDatabase();
const onPostgres = process.env.TEST_DB === "postgres";

// The guarantee the product sells: one slot, many guests at once, exactly one booking. On
// PostgreSQL the requests run on 50 connections of their own, so the transactions truly
// overlap and only the exclusion constraint can settle them. (PGlite has one connection and
// serialises them; the same test there checks the re-check path.)
describe("concurrent bookings of one slot", () => {
  it("50 concurrent creates: exactly one 201, 49 × 409 slot_unavailable, one booking stored", async () => {
    const host = await createHost();
    const et = await createEventType(host, { durationMinutes: 30, bufferAfterMinutes: 10 });
    const date = dateIn(4, host.timezone);
    await openOnly(host, date);
    const [slot] = await getSlots(host, et.slug, date);

    const shared = test.current();
    const wide = onPostgres ? await openPostgres(process.env.TEST_DATABASE_URL!, { max: 50 }) : undefined;
    if (wide) setDatabase(wide);
    try {
      if (wide) {
        // Open all 50 connections first, so every request really gets its own.
        await Promise.all(Array.from({ length: 50 }, () => wide.db.execute("select pg_sleep(0.05)")));
      }
      const results = await Promise.all(Array.from({ length: 50 }, () => book(host, et.slug, slot!.startTime, {}, randomUUID())));
      const statuses = results.map((r) => r.status).sort();
      const unexpected = results.filter((r) => r.status !== 201 && r.status !== 409).map((r) => r.body);
      expect(unexpected, JSON.stringify(unexpected)).toEqual([]);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(49);
      expect(results.filter((r) => r.status === 409).every((r) => r.body.error === "slot_unavailable")).toBe(true);
    } finally {
      if (wide) {
        setDatabase(shared);
        await wide.close();
      }
    }
    const stored = await (await getDatabase()).db
      .select()
      .from(bookings)
      .where(and(eq(bookings.hostId, host.id), ne(bookings.status, "cancelled")));
    expect(stored).toHaveLength(1);
  });

  it("concurrent bookings of overlapping slots (buffers included) never both succeed", async () => {
    const host = await createHost();
    // 30-minute slots every 15 minutes: neighbours overlap each other.
    const et = await createEventType(host, { durationMinutes: 30, slotIntervalMinutes: 15 });
    const date = dateIn(4, host.timezone);
    await openOnly(host, date);
    const slots = (await getSlots(host, et.slug, date)).slice(0, 6);
    const results = await Promise.all(slots.flatMap((s) => [book(host, et.slug, s.startTime), book(host, et.slug, s.startTime)]));
    const won = results.filter((r) => r.status === 201).map((r) => Date.parse(r.body.startTime)).sort((a, b) => a - b);
    // A winner blocks only its neighbours (starts less than 30 minutes apart): six slots need two at least.
    expect(won.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < won.length; i++) expect(won[i]! - won[i - 1]!).toBeGreaterThanOrEqual(30 * 60_000);
    expect(results.every((r) => r.status === 201 || r.body.error === "slot_unavailable")).toBe(true);
  });
});

/** Runs `work` with 50 connections of its own on PostgreSQL (truly overlapping transactions); on PGlite as it is. */
async function wideOpen<T>(work: () => Promise<T>): Promise<T> {
  const shared = test.current();
  const wide = onPostgres ? await openPostgres(process.env.TEST_DATABASE_URL!, { max: 50 }) : undefined;
  if (wide) setDatabase(wide);
  try {
    if (wide) await Promise.all(Array.from({ length: 50 }, () => wide.db.execute("select pg_sleep(0.05)")));
    return await work();
  } finally {
    if (wide) {
      setDatabase(shared);
      await wide.close();
    }
  }
}

// Teams (decisions §15): the database refuses a double booking per host of a booking, whatever
// mix of personal and team bookings race.
describe("concurrent team bookings", () => {
  it("40 guests at once on one round-robin start with 3 hosts: exactly 3 bookings, one per host, 37 × 409", async () => {
    const hosts = [await createHost({ timezone: "UTC" }), await createHost({ timezone: "UTC" }), await createHost({ timezone: "UTC" })];
    const date = dateIn(4, "UTC");
    for (const h of hosts) await openOnly(h, date);
    const { team, eventType } = await teamWithType(hosts[0]!, hosts.slice(1), { schedulingType: "round_robin" });
    const start = `${date}T09:00:00Z`;
    const results = await wideOpen(() =>
      Promise.all(
        Array.from({ length: 40 }, () =>
          api.post(`/public/teams/${team.slug}/${eventType.slug}/bookings`, { startTime: start, ...guest() }, { headers: { "idempotency-key": randomUUID(), ...clientHeaders() } }),
        ),
      ),
    );
    const unexpected = results.filter((r) => r.status !== 201 && r.status !== 409).map((r) => r.body);
    expect(unexpected, JSON.stringify(unexpected)).toEqual([]);
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error === "slot_unavailable")).toBe(true);
    const made = await (await getDatabase()).db
      .select({ userId: bookingHosts.userId })
      .from(bookingHosts)
      .innerJoin(bookings, eq(bookings.id, bookingHosts.bookingId))
      .where(and(eq(bookings.eventTypeId, eventType.id), ne(bookings.status, "cancelled")));
    expect(made.map((m) => m.userId).sort()).toEqual(hosts.map((h) => h.id).sort());
  });

  it("personal and collective bookings racing on one host: never both", async () => {
    const ann = await createHost({ timezone: "UTC" });
    const ben = await createHost({ timezone: "UTC" });
    const date = dateIn(4, "UTC");
    for (const h of [ann, ben]) await openOnly(h, date);
    const personal = await createEventType(ann, { durationMinutes: 30 });
    const { team, eventType } = await teamWithType(ann, [ben], { schedulingType: "collective" });
    const start = `${date}T10:00:00Z`;
    const results = await wideOpen(() =>
      Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          i % 2 === 0
            ? book(ann, personal.slug, start, {}, randomUUID())
            : api.post(`/public/teams/${team.slug}/${eventType.slug}/bookings`, { startTime: start, ...guest() }, { headers: { "idempotency-key": randomUUID(), ...clientHeaders() } }),
        ),
      ),
    );
    const unexpected = results.filter((r) => r.status !== 201 && r.status !== 409).map((r) => r.body);
    expect(unexpected, JSON.stringify(unexpected)).toEqual([]);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const annHolds = await (await getDatabase()).db
      .select()
      .from(bookingHosts)
      .where(and(eq(bookingHosts.userId, ann.id), eq(bookingHosts.cancelled, false)));
    expect(annHolds).toHaveLength(1);
  });
});

describe("deleting an event type while a guest books it", () => {
  it("never answers 500: either the booking wins (the type is deactivated) or the delete does (404)", async () => {
    const host = await createHost();
    const date = dateIn(3, host.timezone);
    await openOnly(host, date, [{ startTime: "09:00", endTime: "17:00" }]);
    const wide = onPostgres ? await openPostgres(process.env.TEST_DATABASE_URL!, { max: 8 }) : undefined;
    const shared = test.current();
    if (wide) setDatabase(wide);
    try {
      for (let round = 0; round < 12; round++) {
        const et = await createEventType(host);
        const [slot] = await getSlots(host, et.slug, date);
        const [booked, deleted] = await Promise.all([
          book(host, et.slug, slot!.startTime),
          api.delete(`/me/event-types/${et.id}`, { token: host.token }),
        ]);
        expect([booked.status, deleted.status], JSON.stringify([booked.body, deleted.body])).toSatisfy(
          ([b, d]: number[]) => (b === 201 && d === 200) || (b === 404 && d === 204),
        );
        if (booked.status === 201) {
          expect(deleted.body.isActive).toBe(false);
          await api.post(`/me/bookings/${booked.body.id}/cancel`, {}, { token: host.token });
        }
      }
    } finally {
      if (wide) {
        setDatabase(shared);
        await wide.close();
      }
    }
  });

  it.runIf(onPostgres)("a booking that waited on the host's lock while the type was deleted answers 404", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    const date = dateIn(3, host.timezone);
    await openOnly(host, date);
    const [slot] = await getSlots(host, et.slug, date);
    const wide = await openPostgres(process.env.TEST_DATABASE_URL!, { max: 4 });
    const shared = test.current();
    setDatabase(wide);
    try {
      // Another writer holds the host's booking lock; the booking reads the event type, then waits.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const holder = shared.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`host-bookings:${host.id}`}, 0))`);
        await held;
        await tx.delete(eventTypes).where(eq(eventTypes.id, et.id));
      });
      const pending = book(host, et.slug, slot!.startTime);
      for (let i = 0; i < 100; i++) {
        const result = await shared.db.execute(sql`select count(*)::int as waiting from pg_locks where locktype = 'advisory' and not granted`);
        const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { waiting: number }[];
        if (Number(rows[0]?.waiting) > 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      release();
      await holder;
      const res = await pending;
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body.error).toBe("not_found");
    } finally {
      setDatabase(shared);
      await wide.close();
    }
  });
});

// The guarantee does not rest on the service's checks: written past them, straight into the
// table, an overlapping booking is refused by the database and the service reports it as 409.
describe("the exclusion constraint", () => {
  it("refuses an overlapping non-cancelled booking of the same host (23P01 → slot_unavailable)", async () => {
    const host = await createHost();
    const et = await createEventType(host, { durationMinutes: 30 });
    const { insertBookingOrConflict } = await import("@/lib/services/bookings/store");
    const db = (await getDatabase()).db;
    const at = (minutes: number) => new Date(Date.UTC(2030, 0, 7, 9, minutes));
    const row = (id: string, start: number, end: number, status: "confirmed" | "cancelled" = "confirmed") => ({
      id,
      hostId: host.id,
      eventTypeId: et.id,
      status,
      startTime: at(start),
      endTime: at(end),
      blockedStart: at(start),
      blockedEnd: at(end),
      guestName: "G",
      guestEmail: "g@example.com",
      guestTimezone: "UTC",
      cancelTokenHash: randomUUID(),
    });
    await db.transaction((tx) => insertBookingOrConflict(tx, row(`bkg_${randomUUID()}`, 0, 30)));
    const overlapping = db.transaction((tx) => insertBookingOrConflict(tx, row(`bkg_${randomUUID()}`, 15, 45)));
    await expect(overlapping).rejects.toMatchObject({ code: "slot_unavailable" });
    // Touching is not overlapping; a cancelled booking blocks nothing.
    await db.transaction((tx) => insertBookingOrConflict(tx, row(`bkg_${randomUUID()}`, 30, 60)));
    await db.transaction((tx) => insertBookingOrConflict(tx, row(`bkg_${randomUUID()}`, 0, 30, "cancelled")));
    const stored = await db.select().from(bookings).where(eq(bookings.hostId, host.id));
    expect(stored).toHaveLength(3);
  });
});
