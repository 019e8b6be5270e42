import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { bookingHosts } from "@/db/schema";
import { api } from "../support/api";
import { book, clientHeaders, dateIn, getSlots, guest, insertBookingRow, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { teamWithType } from "../support/teams";

// GET /me/bookings?updatedSince= / ?cursor= (decisions §18): the walk of a host's changes. Each
// kind of change brings a booking back later in the walk with a later updatedAt; a team booking
// is in each host's walk; changes stamped alike are told apart by id across steps; a walk takes
// only limit. (The walk under concurrent writers on PostgreSQL: booking-changes-race.test.ts.)

withTestDatabase();

type Seen = { id: string; updatedAt: string; status: string };

/** Follows nextCursor from `start` until null; every booking read, in order. */
async function walk(host: TestHost, start: string, limit = 2): Promise<Seen[]> {
  const seen: Seen[] = [];
  let query = start;
  for (let steps = 0; steps < 1000; steps++) {
    const res = await api.get(`/me/bookings?limit=${limit}&${query}`, { token: host.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body.pagination).sort()).toEqual(["limit", "nextCursor"]);
    seen.push(...res.body.data.map((b: any) => ({ id: b.id, updatedAt: b.updatedAt, status: b.status })));
    if (res.body.pagination.nextCursor === null) return seen;
    expect(res.body.data).toHaveLength(limit);
    query = `cursor=${res.body.pagination.nextCursor}`;
  }
  throw new Error("the walk did not end");
}

/** The walk's position after everything it has now: the cursor of a walk to its end (one step at a time). */
async function cursorAtEnd(host: TestHost): Promise<string> {
  let query = "updatedSince=2000-01-01T00:00:00Z";
  let last: string | undefined;
  for (;;) {
    const res = await api.get(`/me/bookings?limit=1&${query}`, { token: host.token });
    expect(res.status).toBe(200);
    if (res.body.pagination.nextCursor === null) return last ? `cursor=${last}` : "updatedSince=2000-01-01T00:00:00Z";
    last = res.body.pagination.nextCursor;
    query = `cursor=${last}`;
  }
}

async function hostWithType(fields: Record<string, unknown> = {}) {
  const host = await createHost({ timezone: "UTC" });
  const et = await createEventType(host, { durationMinutes: 30, ...fields });
  const date = dateIn(6, "UTC");
  await openOnly(host, date, [{ startTime: "09:00", endTime: "17:00" }]);
  const slots = await getSlots(host, et.slug, date);
  return { host, et, slots };
}

async function booked(host: TestHost, slug: string, startTime: string, fields: Record<string, unknown> = {}) {
  const res = await book(host, slug, startTime, fields);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const later = (a: string, b: string) => expect(Date.parse(b)).toBeGreaterThan(Date.parse(a));

describe("the walk of a host's changes", () => {
  it("each change (create, reschedule, cancel) brings the booking back later in the walk, with a later updatedAt", async () => {
    const { host, et, slots } = await hostWithType();
    const a = await booked(host, et.slug, slots[0]!.startTime);
    const b = await booked(host, et.slug, slots[2]!.startTime);
    expect(a.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // The create's answer carries the updatedAt the database stamped, as GET shows it.
    const first = await walk(host, "updatedSince=2000-01-01T00:00:00Z");
    expect(first).toEqual([
      { id: a.id, updatedAt: a.updatedAt, status: "confirmed" },
      { id: b.id, updatedAt: b.updatedAt, status: "confirmed" },
    ]);
    const page = await api.get("/me/bookings", { token: host.token });
    expect(page.body.data.map((x: any) => x.updatedAt)).toEqual([a.updatedAt, b.updatedAt]);
    const resume = await cursorAtEnd(host);

    const moved = await api.post(`/me/bookings/${a.id}/reschedule`, { startTime: slots[4]!.startTime }, { token: host.token });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const cancelled = await api.post(`/me/bookings/${b.id}/cancel`, {}, { token: host.token });
    expect(cancelled.status).toBe(200);

    const next = await walk(host, resume, 1);
    expect(next.map((s) => [s.id, s.status])).toEqual([
      [a.id, "confirmed"],
      [b.id, "cancelled"],
    ]);
    later(a.updatedAt, next[0]!.updatedAt);
    later(b.updatedAt, next[1]!.updatedAt);
    // The whole walk from the start shows each booking once, at its last change.
    expect(await walk(host, "updatedSince=2000-01-01T00:00:00Z", 1)).toEqual(next);
  });

  it("a confirm of a request, a no-show mark and a guest's erasure each bring the booking back", async () => {
    const { host, et, slots } = await hostWithType({ requiresConfirmation: true });
    const request = await booked(host, et.slug, slots[0]!.startTime);
    const past = await insertBookingRow(host.id, et.id, new Date(Date.now() - 2 * 86_400_000));
    const erased = await booked(host, et.slug, slots[2]!.startTime, { guestEmail: "erase-me@example.com" });
    const before = await walk(host, "updatedSince=2000-01-01T00:00:00Z");
    const at = new Map(before.map((s) => [s.id, s.updatedAt]));

    let resume = await cursorAtEnd(host);
    expect((await api.post(`/me/bookings/${request.id}/confirm`, {}, { token: host.token })).status).toBe(200);
    let next = await walk(host, resume);
    expect(next.map((s) => [s.id, s.status])).toEqual([[request.id, "confirmed"]]);
    later(at.get(request.id)!, next[0]!.updatedAt);

    resume = await cursorAtEnd(host);
    expect((await api.post(`/me/bookings/${past.row.id}/no-show`, { noShow: true }, { token: host.token })).status).toBe(200);
    next = await walk(host, resume);
    expect(next.map((s) => s.id)).toEqual([past.row.id]);
    later(at.get(past.row.id)!, next[0]!.updatedAt);

    resume = await cursorAtEnd(host);
    expect((await api.delete("/me/guests/erase-me@example.com", { token: host.token })).status).toBe(204);
    next = await walk(host, resume);
    expect(next.map((s) => s.id)).toEqual([erased.id]);
    later(at.get(erased.id)!, next[0]!.updatedAt);
  });

  it("a collective team booking is in each host's walk, and its cancel comes back in each", async () => {
    const ann = await createHost({ timezone: "UTC" });
    const ben = await createHost({ timezone: "UTC" });
    const date = dateIn(6, "UTC");
    for (const h of [ann, ben]) await openOnly(h, date);
    const { team, eventType } = await teamWithType(ann, [ben], { schedulingType: "collective" });
    const res = await api.post(`/public/teams/${team.slug}/${eventType.slug}/bookings`, { startTime: `${date}T09:00:00Z`, ...guest() }, { headers: { "idempotency-key": crypto.randomUUID(), ...clientHeaders() } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const resumes = [];
    for (const h of [ann, ben]) {
      expect(await walk(h, "updatedSince=2000-01-01T00:00:00Z")).toEqual([{ id: res.body.id, updatedAt: res.body.updatedAt, status: "confirmed" }]);
      resumes.push(await cursorAtEnd(h));
    }
    expect((await api.post(`/me/bookings/${res.body.id}/cancel`, {}, { token: ben.token })).status).toBe(200);
    const [forAnn, forBen] = [await walk(ann, resumes[0]!), await walk(ben, resumes[1]!)];
    expect(forAnn.map((s) => [s.id, s.status])).toEqual([[res.body.id, "cancelled"]]);
    expect(forBen).toEqual(forAnn);
  });

  it("bookings changed in the same microsecond are all read, one a step, in id order", async () => {
    const { host, et, slots } = await hostWithType();
    const made = [];
    for (let i = 0; i < 4; i++) made.push(await booked(host, et.slug, slots[i * 2]!.startTime, { guestEmail: "same@example.com" }));
    // One erasure changes them all in one transaction; their stamps are then made equal, to the
    // microsecond (the database's clock may well tell them apart, and the tie is the point).
    expect((await api.delete("/me/guests/same@example.com", { token: host.token })).status).toBe(204);
    const ids = made.map((b) => b.id);
    const db = await getDb();
    await db
      .update(bookingHosts)
      .set({ changedAt: sql`'2030-01-01T00:00:00.123456Z'::timestamptz` })
      .where(inArray(bookingHosts.bookingId, ids));
    const seen = await walk(host, "updatedSince=2030-01-01T00:00:00.123Z", 1);
    expect(seen.map((s) => s.id)).toEqual([...ids].sort());
    // A walk from the next microsecond finds none of them.
    expect(await walk(host, "updatedSince=2030-01-01T00:00:00.124Z", 1)).toEqual([]);
    expect((await db.select().from(bookingHosts).where(eq(bookingHosts.userId, host.id))).length).toBe(4);
  });

  it("an updatedSince in the future is an empty walk; the page form is as it was", async () => {
    const { host, et, slots } = await hostWithType();
    await booked(host, et.slug, slots[0]!.startTime);
    const res = await api.get("/me/bookings?updatedSince=2999-01-01T00:00:00Z", { token: host.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], pagination: { limit: 20, nextCursor: null } });
    const page = await api.get("/me/bookings?limit=5", { token: host.token });
    expect(page.body.pagination).toEqual({ page: 1, limit: 5, total: 1 });
  });

  it("a malformed cursor is 400 at cursor; the list's filters and page beside a walk are 400", async () => {
    const host = await createHost({ timezone: "UTC" });
    const bad = [
      "x",
      "!!!",
      Buffer.from("2027-02-31T00:00:00.000000Z|bkg_1").toString("base64url"),
      Buffer.from("10000-01-01T00:00:00.000000Z|bkg_1").toString("base64url"),
      Buffer.from("2027-01-01T00:00:00.000000Z|bad id").toString("base64url"),
      Buffer.from("2027-01-01T00:00:00.000000Z").toString("base64url"),
      "a".repeat(201),
    ];
    for (const cursor of bad) {
      const res = await api.get(`/me/bookings?cursor=${encodeURIComponent(cursor)}`, { token: host.token });
      expect(res.status, `${cursor}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error).toBe("validation_error");
      expect(res.body.details.issues.map((i: any) => i.path)).toEqual(["cursor"]);
    }
    const good = Buffer.from("2027-01-01T00:00:00.000000Z|bkg_1").toString("base64url");
    expect((await api.get(`/me/bookings?cursor=${good}`, { token: host.token })).status).toBe(200);
    for (const filter of ["status=confirmed", "when=upcoming", "from=2027-01-01", "page=2", "q=grace", "noShow=true", "eventTypeId=evt_1"]) {
      const res = await api.get(`/me/bookings?updatedSince=2027-01-01T00:00:00Z&${filter}`, { token: host.token });
      expect(res.status, filter).toBe(400);
      expect(res.body.details.issues[0].message).toMatch(/takes only limit/);
      expect((await api.get(`/me/bookings?cursor=${good}&${filter}`, { token: host.token })).status, filter).toBe(400);
    }
    expect((await api.get("/me/bookings?updatedSince=yesterday", { token: host.token })).status).toBe(400);
  });
});
