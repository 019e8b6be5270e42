import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookings, oneTimeLinks } from "@/db/schema";
import { openPostgres } from "@/db/client";
import { getDatabase, getDb, setDatabase } from "@/lib/store/database";
import { api } from "../support/api";
import { clientHeaders, dateIn, guest, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { as, teamWithType } from "../support/teams";

// One-time links (decisions §21): made, listed and withdrawn by whoever may change the event
// type; a link books its event type once, also while it is switched off for the public; used,
// expired or withdrawn it answers 410 gone on every public route, and an unknown token 404.

const test = withTestDatabase();
const onPostgres = process.env.TEST_DB === "postgres";

type Made = { id: string; url: string; expiresAt: string; token: string };

async function makeLink(host: TestHost, eventTypeId: string, body: Record<string, unknown> = {}, base = "/me/event-types"): Promise<Made> {
  const res = await api.post(`${base}/${eventTypeId}/one-time-links`, body, as(host));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { ...res.body, token: String(res.body.url).split("/").pop()! };
}

const linkSlots = (token: string, date: string, zone = "Europe/Berlin") =>
  api.get(`/public/links/${token}/slots?from=${date}&to=${date}&timezone=${encodeURIComponent(zone)}`, { headers: clientHeaders() });

const bookLink = (token: string, startTime: string, fields: Record<string, unknown> = {}, key = randomUUID()) =>
  api.post(`/public/links/${token}/bookings`, { startTime, ...guest(fields) }, { headers: { "idempotency-key": key, ...clientHeaders() } });

/** A host with one event type switched off and a day of open hours: its first start. */
async function hiddenEventType() {
  const host = await createHost();
  const et = await createEventType(host, { durationMinutes: 30 });
  expect((await api.patch(`/me/event-types/${et.id}`, { isActive: false }, as(host))).status).toBe(200);
  const date = dateIn(4, host.timezone);
  await openOnly(host, date);
  return { host, et, date };
}

async function bookingCount(eventTypeId: string): Promise<number> {
  const [row] = await (await getDb()).select({ n: sql<number>`count(*)::int` }).from(bookings).where(eq(bookings.eventTypeId, eventTypeId));
  return row!.n;
}

describe("making, listing and withdrawing links", () => {
  it("answers the address once, lists the unused ones newest first, withdraws one", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    const first = await makeLink(host, et.id);
    expect(first.id).toMatch(/^otl_/);
    expect(first.url).toMatch(/\/d\/[A-Za-z0-9_-]{43}$/);
    const days = (Date.parse(first.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const second = await makeLink(host, et.id, { expiresInDays: 90 });
    expect((Date.parse(second.expiresAt) - Date.now()) / 86_400_000).toBeGreaterThan(89.99);

    const listed = await api.get(`/me/event-types/${et.id}/one-time-links`, as(host));
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((l: { id: string }) => l.id)).toEqual([second.id, first.id]);
    expect(listed.body.data[0]).toEqual({ id: second.id, createdAt: expect.any(String), expiresAt: second.expiresAt });
    // Only a hash is kept: the list and the table never hold the token.
    expect(JSON.stringify(listed.body)).not.toContain(first.token);
    const [row] = await (await getDb()).select().from(oneTimeLinks).where(eq(oneTimeLinks.id, first.id));
    expect(row!.tokenHash).not.toContain(first.token);

    expect((await api.delete(`/me/event-types/${et.id}/one-time-links/${first.id}`, as(host))).status).toBe(204);
    expect((await api.get(`/me/event-types/${et.id}/one-time-links`, as(host))).body.data.map((l: { id: string }) => l.id)).toEqual([second.id]);
    expect((await api.delete(`/me/event-types/${et.id}/one-time-links/${first.id}`, as(host))).status).toBe(404);
  });

  it("refuses a bad expiresInDays at its field, and makes nothing", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    for (const expiresInDays of [0, 91, 2.5, "7"]) {
      const res = await api.post(`/me/event-types/${et.id}/one-time-links`, { expiresInDays }, as(host));
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("validation_error");
      expect(res.body.details.issues[0].path).toBe("expiresInDays");
      expect(res.body.details.issues[0].message).toMatch(/from 1 to 90/);
    }
    expect((await api.get(`/me/event-types/${et.id}/one-time-links`, as(host))).body.data).toEqual([]);
  });

  it("another host's event type or link is 404, and an API key needs the event-types scopes", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    const link = await makeLink(host, et.id);
    const other = await createHost();
    expect((await api.post(`/me/event-types/${et.id}/one-time-links`, {}, as(other))).status).toBe(404);
    expect((await api.get(`/me/event-types/${et.id}/one-time-links`, as(other))).status).toBe(404);
    expect((await api.delete(`/me/event-types/${et.id}/one-time-links/${link.id}`, as(other))).status).toBe(404);
    // The other host's own event type does not reach this link either.
    const theirs = await createEventType(other);
    expect((await api.delete(`/me/event-types/${theirs.id}/one-time-links/${link.id}`, as(other))).status).toBe(404);

    const key = async (scopes: string[]) => (await api.post("/me/api-keys", { name: "Links", scopes }, as(host))).body.key as string;
    const reader = await key(["event-types:read"]);
    expect((await api.get(`/me/event-types/${et.id}/one-time-links`, { token: reader })).status).toBe(200);
    const refused = await api.post(`/me/event-types/${et.id}/one-time-links`, {}, { token: reader });
    expect(refused.status).toBe(403);
    expect(refused.body.details.requiredScope).toBe("event-types:write");
    const bookingsOnly = await key(["bookings:write"]);
    expect((await api.get(`/me/event-types/${et.id}/one-time-links`, { token: bookingsOnly })).status).toBe(403);
    const writer = await key(["event-types:write"]);
    expect((await api.post(`/me/event-types/${et.id}/one-time-links`, {}, { token: writer })).status).toBe(201);
    expect((await api.delete(`/me/event-types/${et.id}/one-time-links/${link.id}`, { token: writer })).status).toBe(204);
  });

  it("a team's owners make and withdraw links, its members list them, others get 404", async () => {
    const owner = await createHost();
    const member = await createHost();
    const { team, eventType } = await teamWithType(owner, [member], { schedulingType: "round_robin" });
    const base = `/me/teams/${team.id}/event-types`;
    const link = await makeLink(owner, eventType.id, { expiresInDays: 1 }, base);
    expect((await api.get(`${base}/${eventType.id}/one-time-links`, as(member))).body.data.map((l: { id: string }) => l.id)).toEqual([link.id]);
    expect((await api.post(`${base}/${eventType.id}/one-time-links`, {}, as(member))).status).toBe(403);
    expect((await api.delete(`${base}/${eventType.id}/one-time-links/${link.id}`, as(member))).status).toBe(403);
    const stranger = await createHost();
    expect((await api.get(`${base}/${eventType.id}/one-time-links`, as(stranger))).status).toBe(404);
    // The personal path does not reach a team's event type.
    expect((await api.get(`/me/event-types/${eventType.id}/one-time-links`, as(owner))).status).toBe(404);
    expect((await api.delete(`${base}/${eventType.id}/one-time-links/${link.id}`, as(owner))).status).toBe(204);
  });
});

describe("booking through a link", () => {
  it("books a switched-off event type once; then 410 on every route and nothing changes", async () => {
    const { host, et, date } = await hiddenEventType();
    // Switched off: the public paths do not know it.
    expect((await api.get(`/public/${host.username}/${et.slug}`)).status).toBe(404);
    const link = await makeLink(host, et.id);

    const page = await api.get(`/public/links/${link.token}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ host: { username: host.username }, team: null, hosts: [{ username: host.username }], eventType: { slug: et.slug, title: "Intro call" }, expiresAt: link.expiresAt });

    const slots = await linkSlots(link.token, date, host.timezone);
    expect(slots.status).toBe(200);
    expect(slots.body.slots.length).toBe(6);
    const start = slots.body.slots[0].startTime;

    const key = randomUUID();
    const booked = await bookLink(link.token, start, {}, key);
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(booked.body.startTime).toBe(start);
    expect(booked.body.cancelUrl).toMatch(/\/cancel\//);
    const [row] = await (await getDb()).select().from(oneTimeLinks).where(eq(oneTimeLinks.id, link.id));
    expect(row!.usedAt).not.toBeNull();
    expect(row!.bookingId).toBe(booked.body.id);
    // Gone from the host's list once used.
    expect((await api.get(`/me/event-types/${et.id}/one-time-links`, as(host))).body.data).toEqual([]);

    // The same request again (a lost answer) replays the first answer.
    const replay = await bookLink(link.token, start, { guestEmail: booked.body.guestEmail }, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.id).toBe(booked.body.id);

    const again = await bookLink(link.token, slots.body.slots[1].startTime);
    expect(again.status).toBe(410);
    expect(again.body).toMatchObject({ error: "gone", message: "This link has already been used to book", details: { reason: "used" } });
    expect((await api.get(`/public/links/${link.token}`)).status).toBe(410);
    expect((await linkSlots(link.token, date)).status).toBe(410);
    expect(await bookingCount(et.id)).toBe(1);

    // The link's booking is any booking: the guest cancels it with their token.
    const token = String(booked.body.cancelUrl).split("/").pop();
    expect((await api.post("/public/cancel", { token })).status).toBe(200);
  });

  it("a series is refused at occurrences; a slot taken meanwhile leaves the link unused", async () => {
    const host = await createHost();
    const et = await createEventType(host, { durationMinutes: 30, recurrence: { everyWeeks: 1, maxOccurrences: 4 } });
    const date = dateIn(4, host.timezone);
    await openOnly(host, date);
    const link = await makeLink(host, et.id);
    expect((await api.get(`/public/links/${link.token}`)).body.eventType.recurrence).toBeUndefined();
    const start = (await linkSlots(link.token, date)).body.slots[0].startTime;
    const series = await bookLink(link.token, start, { occurrences: 2 });
    expect(series.status).toBe(400);
    expect(series.body.details.issues).toEqual([{ path: "occurrences", message: expect.stringMatching(/single time/) }]);

    // Someone takes the time on the public page first: 409, and the link still books another.
    const taken = await api.post(`/public/${host.username}/${et.slug}/bookings`, { startTime: start, ...guest() }, { headers: { "idempotency-key": randomUUID(), ...clientHeaders() } });
    expect(taken.status).toBe(201);
    const refused = await bookLink(link.token, start);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe("slot_unavailable");
    const [row] = await (await getDb()).select().from(oneTimeLinks).where(eq(oneTimeLinks.id, link.id));
    expect(row!.usedAt).toBeNull();
    const later = (await linkSlots(link.token, date)).body.slots[0].startTime;
    expect((await bookLink(link.token, later)).status).toBe(201);
  });

  it("two guests at once on one link: exactly one 201 and one 410", async () => {
    const { host, et, date } = await hiddenEventType();
    const link = await makeLink(host, et.id);
    const slots = (await linkSlots(link.token, date, host.timezone)).body.slots;
    const shared = test.current();
    const wide = onPostgres ? await openPostgres(process.env.TEST_DATABASE_URL!, { max: 4 }) : undefined;
    if (wide) setDatabase(wide);
    try {
      // The same start and different ones: the link, not the slot, decides.
      const results = await Promise.all([bookLink(link.token, slots[0].startTime), bookLink(link.token, slots[0].startTime), bookLink(link.token, slots[2].startTime)]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses, JSON.stringify(results.map((r) => r.body))).toEqual([201, 410, 410]);
    } finally {
      if (wide) {
        setDatabase(shared);
        await wide.close();
      }
    }
    expect(await bookingCount(et.id)).toBe(1);
  });

  it("expired: 410 on the page, slots and booking, in words with the day", async () => {
    const { host, et, date } = await hiddenEventType();
    const link = await makeLink(host, et.id, { expiresInDays: 1 });
    const start = (await linkSlots(link.token, date)).body.slots[0].startTime;
    await (await getDatabase()).db.update(oneTimeLinks).set({ expiresAt: new Date("2021-03-15T12:00:00Z") }).where(eq(oneTimeLinks.id, link.id));
    for (const res of [await api.get(`/public/links/${link.token}`), await linkSlots(link.token, date), await bookLink(link.token, start)]) {
      expect(res.status).toBe(410);
      expect(res.body).toMatchObject({ error: "gone", message: "This link expired on March 15, 2021", details: { reason: "expired" } });
    }
    expect(await bookingCount(et.id)).toBe(0);
    expect((await api.get(`/me/event-types/${et.id}/one-time-links`, as(host))).body.data).toEqual([]);
  });

  it("withdrawn: 410 in words; an unknown token: 404", async () => {
    const { host, et, date } = await hiddenEventType();
    const link = await makeLink(host, et.id);
    const start = (await linkSlots(link.token, date)).body.slots[0].startTime;
    expect((await api.delete(`/me/event-types/${et.id}/one-time-links/${link.id}`, as(host))).status).toBe(204);
    for (const res of [await api.get(`/public/links/${link.token}`), await linkSlots(link.token, date), await bookLink(link.token, start)]) {
      expect(res.status).toBe(410);
      expect(res.body).toMatchObject({ error: "gone", message: "This link was withdrawn by the host", details: { reason: "withdrawn" } });
    }
    const unknown = "A".repeat(43);
    for (const res of [await api.get(`/public/links/${unknown}`), await linkSlots(unknown, date), await bookLink(unknown, start)]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe("not_found");
    }
    expect(await bookingCount(et.id)).toBe(0);
  });

  it("a team's switched-off round-robin event type books through its link", async () => {
    const owner = await createHost();
    const member = await createHost();
    const date = dateIn(4, owner.timezone);
    await openOnly(owner, date);
    await openOnly(member, date);
    const { team, eventType } = await teamWithType(owner, [member], { schedulingType: "round_robin" });
    const base = `/me/teams/${team.id}/event-types`;
    expect((await api.patch(`${base}/${eventType.id}`, { isActive: false }, as(owner))).status).toBe(200);
    const link = await makeLink(owner, eventType.id, {}, base);
    const page = await api.get(`/public/links/${link.token}`);
    expect(page.body).toMatchObject({ host: null, team: { slug: team.slug }, schedulingType: "round_robin" });
    const start = (await linkSlots(link.token, date, owner.timezone)).body.slots[0].startTime;
    const booked = await bookLink(link.token, start);
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect((await bookLink(link.token, start)).status).toBe(410);
  });
});
