import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { bookingGuestTokens, bookings, idempotencyKeys, outboxJobs } from "@/db/schema";
import { seal } from "@/lib/secret-box";
import { api } from "../support/api";
import { book, clientHeaders, dateIn, getSlots, guest, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost } from "../support/factories";

withTestDatabase();

/** A booking made with an Idempotency-Key, `days` ahead: what its replay needs, and the guest's token. */
async function bookedWithKey(days: number) {
  const host = await createHost();
  const et = await createEventType(host);
  const date = dateIn(days, host.timezone);
  await openOnly(host, date);
  const [slot] = await getSlots(host, et.slug, date);
  const key = randomUUID();
  const body = { startTime: slot!.startTime, ...guest() };
  const path = `/public/${host.username}/${et.slug}/bookings`;
  const created = await api.post(path, body, { headers: { "idempotency-key": key } });
  expect(created.status).toBe(201);
  return { key, body, path, created, token: created.body.cancelUrl.split("/").pop() as string };
}

describe("GET /public/{username}/{eventSlug}", () => {
  it("shows the host and the event type, nothing private", async () => {
    const host = await createHost({ timezone: "Europe/Berlin", fullName: "Ada Host" });
    const et = await createEventType(host, {
      title: "Intro call",
      location: "Zoom",
      description: "Say hello",
      customQuestions: [{ id: "topic", label: "Topic", required: true }],
    });
    const res = await api.get(`/public/${host.username}/${et.slug}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      host: { fullName: "Ada Host", username: host.username, avatarUrl: null, timezone: "Europe/Berlin" },
      eventType: {
        slug: et.slug,
        title: "Intro call",
        durationMinutes: 30,
        location: "Zoom",
        description: "Say hello",
        customQuestions: [{ id: "topic", label: "Topic", required: true, type: "text" }],
      },
    });
  });

  it("is 404 for an unknown host, an unknown slug and an inactive event type, on every public path", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    await api.patch(`/me/event-types/${et.id}`, { isActive: false }, { token: host.token });
    const date = dateIn(3, host.timezone);
    for (const path of [`/public/nobody-here/${et.slug}`, `/public/${host.username}/no-such-slug`, `/public/${host.username}/${et.slug}`]) {
      expect((await api.get(path)).status).toBe(404);
      const slots = await api.get(`${path}/slots?from=${date}&to=${date}&timezone=UTC`, { headers: clientHeaders() });
      expect(slots.status).toBe(404);
      expect(slots.body.error).toBe("not_found");
      const created = await api.post(`${path}/bookings`, { startTime: `${date}T10:00:00Z`, ...guest() }, { headers: { "idempotency-key": randomUUID() } });
      expect(created.status).toBe(404);
    }
  });
});

describe("GET /public/{username}/{eventSlug}/slots", () => {
  it("lists the open slots in the guest's timezone, UTC and local with offsets", async () => {
    const host = await createHost({ timezone: "America/New_York" });
    const et = await createEventType(host, { durationMinutes: 30 });
    const date = dateIn(5, host.timezone);
    await openOnly(host, date, [{ startTime: "09:00", endTime: "10:30" }]);
    const slots = await getSlots(host, et.slug, date, date, "America/New_York");
    expect(slots.map((s) => s.displayStart.slice(11))).toEqual(["09:00:00-05:00", "09:30:00-05:00", "10:00:00-05:00"].map((t) => fix(t, date)));
    for (const s of slots) {
      expect(s.startTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00Z$/);
      expect(Date.parse(s.endTime) - Date.parse(s.startTime)).toBe(30 * 60_000);
      expect(Date.parse(s.displayStart)).toBe(Date.parse(s.startTime));
    }
  });

  it("reflects the host's changes at once: new hours, a longer duration, a cancelled booking, a deactivated event type", async () => {
    const host = await createHost({ timezone: "UTC" });
    const et = await createEventType(host, { durationMinutes: 30 });
    const date = dateIn(5, host.timezone);
    await openOnly(host, date, [{ startTime: "09:00", endTime: "10:00" }]);
    expect((await getSlots(host, et.slug, date)).map((s) => s.startTime)).toEqual([`${date}T09:00:00Z`, `${date}T09:30:00Z`]);

    await openOnly(host, date, [{ startTime: "14:00", endTime: "15:00" }]);
    expect((await getSlots(host, et.slug, date)).map((s) => s.startTime)).toEqual([`${date}T14:00:00Z`, `${date}T14:30:00Z`]);

    await api.patch(`/me/event-types/${et.id}`, { durationMinutes: 60 }, { token: host.token });
    expect((await getSlots(host, et.slug, date)).map((s) => s.startTime)).toEqual([`${date}T14:00:00Z`]);

    const booked = await book(host, et.slug, `${date}T14:00:00Z`);
    expect(booked.status).toBe(201);
    expect(await getSlots(host, et.slug, date)).toEqual([]);
    await api.post(`/me/bookings/${booked.body.id}/cancel`, {}, { token: host.token });
    expect(await getSlots(host, et.slug, date)).toHaveLength(1);

    await api.patch(`/me/event-types/${et.id}`, { isActive: false }, { token: host.token });
    const gone = await api.get(`/public/${host.username}/${et.slug}/slots?from=${date}&to=${date}&timezone=UTC`, { headers: clientHeaders() });
    expect(gone.status).toBe(404);
    expect((await api.get(`/public/${host.username}/${et.slug}`)).status).toBe(404);
  });

  it("answers 400 for a range over 31 days, to before from, a bad date or an unknown timezone", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    const base = `/public/${host.username}/${et.slug}/slots`;
    const ok = await api.get(`${base}?from=2027-03-01&to=2027-04-01&timezone=UTC`, { headers: clientHeaders() });
    expect(ok.status).toBe(200);
    for (const query of [
      "from=2027-03-01&to=2027-04-02&timezone=UTC",
      "from=2027-03-05&to=2027-03-04&timezone=UTC",
      "from=2027-02-30&to=2027-03-04&timezone=UTC",
      "from=2027-03-01&to=2027-03-04&timezone=Mars/Olympus",
      "from=2027-03-01&to=2027-03-04",
      "from=2027-03-01&to=2027-03-04&timezone=UTC&extra=1",
    ]) {
      const res = await api.get(`${base}?${query}`, { headers: clientHeaders() });
      expect(res.status, query).toBe(400);
      expect(res.body.error).toBe("validation_error");
      expect(res.body.details.issues.length).toBeGreaterThan(0);
    }
  });

  it("allows 60 requests a minute per client IP, then 429 with the rate-limit headers", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    const date = dateIn(2, host.timezone);
    const headers = clientHeaders();
    const path = `/public/${host.username}/${et.slug}/slots?from=${date}&to=${date}&timezone=UTC`;
    const first = await api.get(path, { headers });
    expect(first.headers.get("x-ratelimit-limit")).toBe("60");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("59");
    for (let i = 1; i < 60; i++) expect((await api.get(path, { headers })).status).toBe(200);
    const limited = await api.get(path, { headers });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    // Another client is not affected.
    expect((await api.get(path, { headers: clientHeaders() })).status).toBe(200);
  });
});

/** "09:00:00-05:00" with the offset the zone really has on `date` (New York: -05:00 or -04:00). */
function fix(time: string, date: string): string {
  const month = Number(date.slice(5, 7));
  const summer = month > 3 && month < 11;
  return summer ? time.replace("-05:00", "-04:00") : time;
}

describe("POST /public/{username}/{eventSlug}/bookings", () => {
  it("books an offered slot: 201 with a cancel link and a confirmation in the guest's zone; the slot is gone", async () => {
    const host = await createHost({ timezone: "America/New_York", fullName: "Ada Host" });
    const et = await createEventType(host, { title: "Intro call", location: "Zoom" });
    const date = dateIn(6, host.timezone);
    await openOnly(host, date);
    const [slot] = await getSlots(host, et.slug, date);
    const res = await book(host, et.slug, slot!.startTime, { guestName: "Grace", guestEmail: `Grace.${randomUUID()}@Example.com`, guestTimezone: "Asia/Kolkata" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^bkg_[A-Za-z0-9_-]{20,}$/),
      status: "confirmed",
      startTime: slot!.startTime,
      endTime: slot!.endTime,
      guestName: "Grace",
      guestEmail: expect.stringMatching(/^Grace\.[0-9a-f-]+@Example\.com$/),
      cancelUrl: expect.stringMatching(/^http:\/\/booking\.test\/cancel\/[A-Za-z0-9_-]{43,}$/),
      rescheduleUrl: expect.stringMatching(/^http:\/\/booking\.test\/reschedule\/[A-Za-z0-9_-]{43,}$/),
      manageUrl: expect.stringMatching(/^http:\/\/booking\.test\/booking\/[A-Za-z0-9_-]{43,}$/),
      confirmationMessage: expect.stringContaining("Intro call with Ada Host"),
      location: "Zoom",
      hostNames: ["Ada Host"],
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    // 09:00 in New York is 19:30 or 18:30 in Kolkata: the message speaks the guest's time.
    expect(res.body.confirmationMessage).toMatch(/(7|6):30 PM/);
    expect(res.body.confirmationMessage).toContain("Asia/Kolkata");
    expect(res.body.confirmationMessage).toContain("Zoom");

    const after = await getSlots(host, et.slug, date);
    expect(after.map((s) => s.startTime)).not.toContain(slot!.startTime);

    // The token is stored only as a hash.
    const token = res.body.cancelUrl.split("/").pop();
    const [row] = await (await getDb()).select().from(bookings).where(eq(bookings.id, res.body.id));
    expect(row!.cancelTokenHash).not.toContain(token);
    expect(row!.cancelTokenHash).toMatch(/^[0-9a-f]{64}$/);

    // booking.created is in the outbox with the full booking.
    const events = await (await getDb()).select().from(outboxJobs).where(eq(outboxJobs.kind, "booking.created"));
    const mine = events.find((e) => (e.payload as any).data.id === res.body.id);
    expect(mine?.payload).toMatchObject({ event: "booking.created", hostId: host.id, data: { id: res.body.id, status: "confirmed", guestTimezone: "Asia/Kolkata", location: "Zoom" } });
  });

  it("records booking.created in the outbox with occurredAt in whole seconds (decisions §3)", async () => {
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

  it("answers 409 slot_unavailable for a taken slot, a start off the grid and a closed time", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    const date = dateIn(7, host.timezone);
    await openOnly(host, date);
    const [slot] = await getSlots(host, et.slug, date);
    expect((await book(host, et.slug, slot!.startTime)).status).toBe(201);
    const taken = await book(host, et.slug, slot!.startTime);
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe("slot_unavailable");
    const offGrid = new Date(Date.parse(slot!.startTime) + 10 * 60_000 + 60 * 60_000).toISOString();
    expect((await book(host, et.slug, offGrid)).body.error).toBe("slot_unavailable");
    expect((await book(host, et.slug, `${dateIn(8, host.timezone)}T15:00:00Z`)).body.error).toBe("slot_unavailable");
  });

  it("validates the body, the Idempotency-Key header and the custom answers, and creates nothing on 400", async () => {
    const host = await createHost();
    const et = await createEventType(host, { customQuestions: [{ id: "topic", label: "Topic", required: true }, { id: "notes", label: "Notes" }] });
    const date = dateIn(7, host.timezone);
    await openOnly(host, date);
    const [slot] = await getSlots(host, et.slug, date);
    const path = `/public/${host.username}/${et.slug}/bookings`;
    const cases: [Record<string, unknown>, Record<string, string>, string][] = [
      [{ startTime: slot!.startTime, ...guest({ customAnswers: { topic: "Hi" } }) }, {}, "Idempotency-Key"],
      [{ startTime: slot!.startTime, ...guest({ customAnswers: { topic: "Hi" } }) }, { "idempotency-key": "not-a-uuid" }, ""],
      [{ startTime: slot!.startTime, ...guest() }, { "idempotency-key": randomUUID() }, "customAnswers.topic"],
      [{ startTime: slot!.startTime, ...guest({ customAnswers: { topic: "  " } }) }, { "idempotency-key": randomUUID() }, "customAnswers.topic"],
      [{ startTime: slot!.startTime, ...guest({ customAnswers: { topic: "Hi", other: "x" } }) }, { "idempotency-key": randomUUID() }, "customAnswers.other"],
      [{ startTime: "tomorrow", ...guest({ customAnswers: { topic: "Hi" } }) }, { "idempotency-key": randomUUID() }, "startTime"],
      [{ startTime: slot!.startTime.replace("Z", ""), ...guest({ customAnswers: { topic: "Hi" } }) }, { "idempotency-key": randomUUID() }, "startTime"],
      [{ startTime: slot!.startTime, ...guest({ guestEmail: "nope", customAnswers: { topic: "Hi" } }) }, { "idempotency-key": randomUUID() }, "guestEmail"],
      [{ startTime: slot!.startTime, ...guest({ guestTimezone: "Nowhere/Land", customAnswers: { topic: "Hi" } }) }, { "idempotency-key": randomUUID() }, "guestTimezone"],
      [{ startTime: slot!.startTime, ...guest({ guestName: "", customAnswers: { topic: "Hi" } }) }, { "idempotency-key": randomUUID() }, "guestName"],
    ];
    for (const [body, headers, field] of cases) {
      const res = await api.post(path, body, { headers });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toBe("validation_error");
      if (field) expect(res.body.details.issues.map((i: any) => i.path)).toContain(field);
    }
    const rows = await (await getDb()).select().from(bookings).where(eq(bookings.hostId, host.id));
    expect(rows).toHaveLength(0);
    const ok = await book(host, et.slug, slot!.startTime, { customAnswers: { topic: "Roadmap" } });
    expect(ok.status).toBe(201);
  });

  it("replays the same key and body, 422 for another body, and counts the booking once", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    const date = dateIn(9, host.timezone);
    await openOnly(host, date);
    const [first, second] = await getSlots(host, et.slug, date);
    const key = randomUUID();
    const body = { startTime: first!.startTime, ...guest() };
    const path = `/public/${host.username}/${et.slug}/bookings`;
    const created = await api.post(path, body, { headers: { "idempotency-key": key } });
    expect(created.status).toBe(201);
    expect(created.headers.get("idempotent-replayed")).toBeNull();
    const again = await api.post(path, body, { headers: { "idempotency-key": key } });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(created.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const other = await api.post(path, { ...body, startTime: second!.startTime }, { headers: { "idempotency-key": key } });
    expect(other.status).toBe(422);
    expect(other.body.error).toBe("idempotency_key_mismatch");
    const rows = await (await getDb()).select().from(bookings).where(eq(bookings.hostId, host.id));
    expect(rows).toHaveLength(1);
    // The first answer stands even after the event type is switched off.
    await api.patch(`/me/event-types/${et.id}`, { isActive: false }, { token: host.token });
    const later = await api.post(path, body, { headers: { "idempotency-key": key } });
    expect(later.status).toBe(201);
    expect(later.body).toEqual(created.body);
  });

  it("keeps no cancel token readable in the stored idempotent answer; a replay still gives a working cancelUrl", async () => {
    const { key, body, path, created, token } = await bookedWithKey(3);

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

  it("replays an answer stored by the release that kept its own sealed copy of the token", async () => {
    const { key, body, path, created, token } = await bookedWithKey(4);
    // As the earlier release stored it: the token sealed inside the answer.
    const db = await getDb();
    const [stored] = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    const legacy = { ...(stored!.responseBody as object), sealedCancelToken: seal(token, "idempotent-answer:cancel-token") };
    await db.update(idempotencyKeys).set({ responseBody: legacy }).where(eq(idempotencyKeys.key, key));
    await db.delete(bookingGuestTokens).where(eq(bookingGuestTokens.bookingId, created.body.id));

    const replay = await api.post(path, body, { headers: { "idempotency-key": key } });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(created.body);
  });

  it("a second request with the key while the first is running waits for it and answers the same booking", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    const date = dateIn(9, host.timezone);
    await openOnly(host, date);
    const [slot] = await getSlots(host, et.slug, date);
    const key = randomUUID();
    const body = { startTime: slot!.startTime, ...guest() };
    const path = `/public/${host.username}/${et.slug}/bookings`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => api.post(path, body, { headers: { "idempotency-key": key } })));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(4);
    expect(await (await getDb()).select().from(bookings).where(eq(bookings.hostId, host.id))).toHaveLength(1);
  });

  it("a claim left without an answer (written before claims moved into the transaction) answers 409 idempotency_key_in_use", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    const date = dateIn(9, host.timezone);
    await openOnly(host, date);
    const [slot] = await getSlots(host, et.slug, date);
    const key = randomUUID();
    const body = { startTime: slot!.startTime, ...guest() };
    const { requestHash } = await import("@/lib/store/idempotency");
    await (await getDb()).insert(idempotencyKeys).values({
      scope: "public-booking",
      key,
      requestHash: requestHash({ username: host.username, slug: et.slug, input: { ...body, startTime: Date.parse(body.startTime), customAnswers: {} } }),
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const res = await api.post(`/public/${host.username}/${et.slug}/bookings`, body, { headers: { "idempotency-key": key } });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("idempotency_key_in_use");
  });

  it("a failed attempt frees its key: the corrected request with the same key succeeds", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    const date = dateIn(9, host.timezone);
    await openOnly(host, date);
    const [a, b] = await getSlots(host, et.slug, date);
    expect((await book(host, et.slug, a!.startTime)).status).toBe(201);
    const key = randomUUID();
    expect((await book(host, et.slug, a!.startTime, {}, key)).status).toBe(409);
    expect((await book(host, et.slug, b!.startTime, {}, key)).status).toBe(201);
  });

  it("allows 5 bookings per hour per guest email, case-insensitively; replays and failures do not count", async () => {
    const host = await createHost();
    const et = await createEventType(host, { durationMinutes: 15 });
    const date = dateIn(10, host.timezone);
    await openOnly(host, date);
    const slots = await getSlots(host, et.slug, date);
    const email = `limit-${randomUUID()}@example.com`;
    const key = randomUUID();
    const first = await book(host, et.slug, slots[0]!.startTime, { guestEmail: email }, key);
    expect(first.status).toBe(201);
    expect((await book(host, et.slug, slots[0]!.startTime, { guestEmail: email }, key)).status).toBe(201); // replay
    expect((await book(host, et.slug, slots[0]!.startTime, { guestEmail: email })).status).toBe(409); // taken
    for (let i = 1; i < 5; i++) {
      const res = await book(host, et.slug, slots[i]!.startTime, { guestEmail: i % 2 ? email.toUpperCase() : email });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const sixth = await book(host, et.slug, slots[5]!.startTime, { guestEmail: email });
    expect(sixth.status).toBe(429);
    expect(sixth.body.error).toBe("rate_limited");
    // The whole hour, not when this email's oldest booking leaves it (tests/integration/guest-limit.test.ts).
    expect(sixth.headers.get("retry-after")).toBe("3600");
    // Another guest still books.
    expect((await book(host, et.slug, slots[5]!.startTime)).status).toBe(201);
  });
});
