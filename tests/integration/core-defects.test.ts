import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, setDatabase } from "@/lib/store/database";
import { openPostgres } from "@/db/client";
import { bookings, eventTypes, idempotencyKeys, outboxJobs } from "@/db/schema";
import { api } from "../support/api";
import { book, clientHeaders, dateIn, getSlots, guest, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, unique } from "../support/factories";

// Defects found from outside the core (issue 7): each case answered 500, leaked a secret or
// broke the contract before its fix.

const test = withTestDatabase();
const onPostgres = process.env.TEST_DB === "postgres";

const NUL = "a\u0000b";
const LONE_SURROGATE = "a\ud800b";

describe("text PostgreSQL cannot store is refused with 400, nothing changes", () => {
  it("NUL and unpaired surrogates in every kind of text input", async () => {
    const host = await createHost();
    const et = await createEventType(host, { customQuestions: [{ id: "topic", label: "Topic", required: false }] });
    const date = dateIn(3, host.timezone);
    await openOnly(host, date);
    const [slot] = await getSlots(host, et.slug, date);
    const auth = { token: host.token };

    for (const bad of [NUL, LONE_SURROGATE]) {
      const cases = [
        await api.post("/auth/login", { email: bad, password: "x" }),
        await api.post("/auth/login", { email: host.email, password: bad }),
        await api.post("/auth/register", { email: `${unique("r")}@example.com`, password: "long enough", fullName: bad, username: unique("u"), timezone: "UTC" }),
        await api.patch("/me", { fullName: bad }, auth),
        await api.post("/me/event-types", { slug: unique("s"), title: bad, durationMinutes: 30 }, auth),
        await api.patch(`/me/event-types/${et.id}`, { description: bad }, auth),
        await api.patch(`/me/event-types/${et.id}`, { location: bad }, auth),
        await api.patch(`/me/event-types/${et.id}`, { customQuestions: [{ id: "q", label: bad }] }, auth),
        await book(host, et.slug, slot!.startTime, { guestName: bad }),
        await book(host, et.slug, slot!.startTime, { customAnswers: { topic: bad } }),
        await book(host, et.slug, slot!.startTime, { customAnswers: { [bad]: "x" } }),
        await api.post("/public/cancel", { token: bad }),
        // URL-, email- and enum-typed fields: their formats alone once let NUL through (a 500).
        await api.patch("/me", { avatarUrl: `https://example.com/a${bad}b.png` }, auth),
        await api.post("/me/webhooks", { url: `https://example.com/h${bad}`, events: ["booking.created"] }, auth),
        await book(host, et.slug, slot!.startTime, { guestEmail: `a${bad}@example.com` }),
        await book(host, et.slug, slot!.startTime, { guestTimezone: `Europe/Berlin${bad}` }),
        // A lone surrogate cannot be written in a URL at all (encodeURIComponent refuses it).
        ...(bad === NUL
          ? [
              await api.post(`/me/bookings/${encodeURIComponent(bad)}/cancel`, { reason: "x" }, auth),
              await api.get(`/public/${encodeURIComponent(bad)}/${et.slug}`),
              await api.get(`/me/bookings?status=${encodeURIComponent(`confirmed${bad}`)}`, auth),
              await api.get(`/public/${host.username}/${et.slug}/slots?from=${date}&to=${date}&timezone=${encodeURIComponent(`UTC${bad}`)}`),
            ]
          : []),
      ];
      for (const res of cases) {
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body.error).toBe("validation_error");
      }
    }
    const [stored] = await (await getDb()).select().from(eventTypes).where(eq(eventTypes.id, et.id));
    expect(stored!.description).toBe("");
    expect(await (await getDb()).select().from(bookings).where(eq(bookings.hostId, host.id))).toHaveLength(0);
  });
});

describe("dates and instants outside 1970–9999 are 400, not 500", () => {
  it("in overrides, the bookings list, the slots query and a booking's start", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    const auth = { token: host.token };
    const availability = (date: string) =>
      api.put("/me/availability", { minNoticeHours: 0, maxAdvanceDays: 60, weeklyRules: [], dateOverrides: [{ date, available: false }] }, auth);
    for (const date of ["0000-01-01", "1969-12-31", "10000-01-01"]) {
      const res = await availability(date);
      expect(res.status, date).toBe(400);
      expect(res.body.details.issues[0].path).toBe("dateOverrides.0.date");
    }
    expect((await availability("1970-01-01")).status).toBe(200);
    expect((await availability("9999-12-31")).status).toBe(200);

    expect((await api.get("/me/bookings?from=0000-01-01", auth)).status).toBe(400);
    expect((await api.get("/me/bookings?to=9999-12-31", auth)).status).toBe(200);
    const slots = await api.get(`/public/${host.username}/${et.slug}/slots?from=0000-01-01&to=0000-01-02&timezone=UTC`, { headers: clientHeaders() });
    expect(slots.status).toBe(400);

    for (const startTime of ["0001-01-01T00:00:00Z", "1969-12-31T23:59:59Z"]) {
      const res = await book(host, et.slug, startTime);
      expect(res.status, startTime).toBe(400);
      expect(res.body.details.issues[0].path).toBe("startTime");
    }
    // A real instant outside the booking window stays what it is: a slot that is not offered.
    const past = await book(host, et.slug, "2020-01-06T15:00:00Z");
    expect(past.status).toBe(409);
    expect(past.body.error).toBe("slot_unavailable");
  });
});

describe("custom question ids and Object.prototype", () => {
  it("refuses ids that name Object.prototype members", async () => {
    const host = await createHost();
    for (const id of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      const res = await api.post(
        "/me/event-types",
        { slug: unique("q"), title: "Q", durationMinutes: 30, customQuestions: [{ id, label: "Label", required: true }] },
        { token: host.token },
      );
      expect(res.status, id).toBe(400);
      expect(res.body.details.issues[0].path).toBe("customQuestions.0.id");
    }
  });

  it("an event type stored with such an id (before the rule) still answers 400 for a missing answer", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    // Written past the API, as rows from before the rule would be.
    await (await getDb())
      .update(eventTypes)
      .set({ customQuestions: [{ id: "constructor", label: "Who are you", required: true, type: "text" }] })
      .where(eq(eventTypes.id, et.id));
    const date = dateIn(3, host.timezone);
    await openOnly(host, date);
    const [slot] = await getSlots(host, et.slug, date);
    const missing = await book(host, et.slug, slot!.startTime);
    expect(missing.status, JSON.stringify(missing.body)).toBe(400);
    expect(missing.body.details.issues).toEqual([{ path: "customAnswers.constructor", message: '"Who are you" needs an answer' }]);
    const answered = await book(host, et.slug, slot!.startTime, { customAnswers: { constructor: "Ada" } });
    expect(answered.status, JSON.stringify(answered.body)).toBe(201);
  });
});

describe("deleting an event type while a guest books it", () => {
  it("never answers 500: either the booking wins (soft delete) or the delete does (404)", async () => {
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

describe("the cancel token is never stored readable", () => {
  it("the stored idempotent answer holds no token, and a replay still gives a working cancelUrl", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    const date = dateIn(3, host.timezone);
    await openOnly(host, date);
    const [slot] = await getSlots(host, et.slug, date);
    const key = randomUUID();
    const body = { startTime: slot!.startTime, ...guest() };
    const path = `/public/${host.username}/${et.slug}/bookings`;
    const created = await api.post(path, body, { headers: { "idempotency-key": key } });
    expect(created.status).toBe(201);
    const token = created.body.cancelUrl.split("/").pop() as string;

    const [stored] = await (await getDb()).select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    const text = JSON.stringify(stored!.responseBody);
    expect(text).not.toContain(token);
    expect(text).not.toContain("/cancel/");

    const replay = await api.post(path, body, { headers: { "idempotency-key": key } });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(created.body);
    const cancelled = await api.post("/public/cancel", { token });
    expect(cancelled.status).toBe(200);
  });
});

describe("X-RateLimit-* on every answer that consulted the guest limit", () => {
  it("on 201, on a 409 after counting, and on a replay", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    const date = dateIn(3, host.timezone);
    await openOnly(host, date);
    const [slot] = await getSlots(host, et.slug, date);
    const email = `${unique("limit")}@example.com`;
    const key = randomUUID();
    const first = await book(host, et.slug, slot!.startTime, { guestEmail: email }, key);
    expect(first.status).toBe(201);
    expect(first.headers.get("x-ratelimit-remaining")).toBe("4");

    const taken = await book(host, et.slug, slot!.startTime, { guestEmail: email });
    expect(taken.status).toBe(409);
    expect(taken.headers.get("x-ratelimit-limit")).toBe("5");
    expect(taken.headers.get("x-ratelimit-remaining")).toBe("3");
    expect(Number(taken.headers.get("x-ratelimit-reset"))).toBeGreaterThan(0);

    const replay = await book(host, et.slug, slot!.startTime, { guestEmail: email }, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("x-ratelimit-limit")).toBe("5");
    // A replay counts nothing: one booking made, four left.
    expect(replay.headers.get("x-ratelimit-remaining")).toBe("4");
  });
});

describe("usernames of the app's own paths", () => {
  it.each(["reschedule", "feeds", "embed", "metrics", "health", "dashboard", "cancel"])("%s is reserved", async (username) => {
    const res = await api.post("/auth/register", { email: `${unique("r")}@example.com`, password: "long enough", fullName: "R", username, timezone: "UTC" });
    expect(res.status).toBe(400);
    expect(res.body.details.issues[0]).toEqual({ path: "username", message: "This username is reserved" });
  });
});

describe("outbox events", () => {
  it("occurredAt has no milliseconds (decisions §3)", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    const date = dateIn(3, host.timezone);
    await openOnly(host, date);
    const [slot] = await getSlots(host, et.slug, date);
    const created = await book(host, et.slug, slot!.startTime);
    // On PostgreSQL the database is shared: other files' jobs (webhook test messages) have no `data`.
    const rows = await (await getDb()).select().from(outboxJobs);
    const mine = rows.find((r) => (r.payload as { data?: { id?: string } }).data?.id === created.body.id);
    expect((mine!.payload as { occurredAt: string }).occurredAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });
});

describe("instants at the far end of the accepted years", () => {
  it("a booking, reschedule and explain on 9999-12-31 answer 4xx, not 500", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    const late = "9999-12-31T23:30:00Z";
    expect((await book(host, et.slug, late)).status).toBe(409);
    const made = await (async () => {
      const date = dateIn(3, host.timezone);
      await openOnly(host, date);
      const [slot] = await getSlots(host, et.slug, date);
      return (await book(host, et.slug, slot!.startTime)).body;
    })();
    expect((await api.post(`/me/bookings/${made.id}/reschedule`, { startTime: late }, { token: host.token })).status).toBe(409);
    expect((await api.post("/public/reschedule", { token: made.cancelUrl.split("/").pop(), startTime: late })).status).toBe(409);
    expect((await api.get(`/me/event-types/${et.id}/explain?startTime=${late}`, { token: host.token })).status).toBe(200);
  });
});
