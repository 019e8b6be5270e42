import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { outboxJobs } from "@/db/schema";
import { bookingEventFanOut } from "@/lib/jobs/run-booking-effects";
import { WEBHOOK_DELIVERY } from "@/lib/outbox/kinds";
import { JobWorker } from "@/lib/jobs/worker";
import { bookingEvents } from "@/lib/outbox/booking-events";
import { api } from "../support/api";
import { book, clientHeaders, dateIn, getSlots, guest, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { configure, jobsOfKind, testWorker } from "../support/jobs";
import { teamWithType } from "../support/teams";
import { startReceiver, type Receiver } from "../support/webhook-receiver";

// Webhooks end to end: real bookings through the API, the outbox worker, a real HTTP endpoint
// on loopback that verifies every signature with the standardwebhooks library. Retries are
// stepped with runDueJobs(now) at the times the service scheduled, instead of waiting for them.

withTestDatabase({ isolated: true });

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The clock a test steps: whole seconds (the API shows times without milliseconds), after every job so far. */
function clockNow(): number {
  return Math.ceil(Date.now() / 1000) * 1000 + 1000;
}

/** An empty outbox, a fresh receiver state, a host with bookable slots, and a webhook to the receiver. */
async function setUp(events?: string[], url = receiver.url) {
  await (await getDb()).delete(outboxJobs);
  configure({ webhooksAllowPrivate: true });
  receiver.received.length = 0;
  receiver.answer = () => 200;
  const host = await createHost({ timezone: "America/New_York" });
  const eventType = await createEventType(host, { title: "Intro call" });
  const date = dateIn(5, host.timezone);
  await openOnly(host, date);
  const slots = await getSlots(host, eventType.slug, date);
  const created = await api.post("/me/webhooks", { url, ...(events ? { events } : {}) }, { token: host.token });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  receiver.secrets = [created.body.secret];
  return { host, eventType, slots, webhook: created.body as { id: string; secret: string } };
}

async function deliveries(host: TestHost, webhookId: string, query = "") {
  const res = await api.get(`/me/webhooks/${webhookId}/deliveries${query}`, { token: host.token });
  expect(res.status).toBe(200);
  return res.body as { data: any[]; pagination: { total: number } };
}

describe("webhook deliveries", () => {
  it("sends booking.created, .rescheduled and .cancelled once each, signed, with the spec's payloads", async () => {
    const { host, eventType, slots, webhook } = await setUp();
    const worker = await testWorker();

    const booked = await book(host, eventType.slug, slots[0]!.startTime, { guestTimezone: "Asia/Tokyo" });
    expect(booked.status).toBe(201);
    expect(receiver.received).toHaveLength(0); // nothing is sent inside the request
    await worker.runDueJobs();
    expect(receiver.received).toHaveLength(1);
    const [created] = receiver.received;
    const listed = (await api.get("/me/bookings", { token: host.token })).body.data[0];
    expect(created!.body).toEqual({ type: "booking.created", timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/), data: listed });
    expect(Object.keys(created!.body.data)).toEqual(Object.keys(listed)); // the API's field order, not jsonb's
    expect(created!.raw).not.toMatch(/sealed|token|sequence/i);
    expect(created!.verifiedBy).toEqual([0]);
    expect(created!.id).toMatch(/^msg_/);
    expect(created!.signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(Math.abs(Number(created!.timestamp) - Date.now() / 1000)).toBeLessThan(60);

    const moved = await api.post(`/me/bookings/${booked.body.id}/reschedule`, { startTime: slots[2]!.startTime }, { token: host.token });
    expect(moved.status).toBe(200);
    await worker.runDueJobs();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.body).toEqual({
      type: "booking.rescheduled",
      timestamp: expect.any(String),
      data: {
        bookingId: booked.body.id,
        rescheduledBy: "host",
        previousStartTime: slots[0]!.startTime,
        previousEndTime: slots[0]!.endTime,
        startTime: slots[2]!.startTime,
        endTime: slots[2]!.endTime,
        hosts: [{ userId: host.id, username: host.username, fullName: expect.any(String) }],
        team: null,
      },
    });

    const cancelled = await api.post(`/me/bookings/${booked.body.id}/cancel`, { reason: "Conflict" }, { token: host.token });
    expect(cancelled.status).toBe(200);
    await worker.runDueJobs();
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received[2]!.body).toEqual({ type: "booking.cancelled", timestamp: expect.any(String), data: { bookingId: booked.body.id, cancelledBy: "host", hosts: [expect.objectContaining({ userId: host.id })], team: null } });
    expect(receiver.received.every((r) => r.verifiedBy.length === 1)).toBe(true);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(3);

    // Nothing more is due, now or in a day.
    expect(await worker.runDueJobs(Date.now() + 48 * HOUR)).toBe(0);
    expect(receiver.received).toHaveLength(3);
    const log = await deliveries(host, webhook.id);
    expect(log.data.map((d) => [d.eventType, d.status, d.responseStatus, d.attempt, d.nextRetryAt])).toEqual([
      ["booking.cancelled", "succeeded", 200, 1, null],
      ["booking.rescheduled", "succeeded", 200, 1, null],
      ["booking.created", "succeeded", 200, 1, null],
    ]);
  });

  it("sends only the events a webhook asked for", async () => {
    const { host, eventType, slots } = await setUp(["booking.cancelled"]);
    const worker = await testWorker();
    const booked = await book(host, eventType.slug, slots[0]!.startTime);
    await worker.runDueJobs();
    expect(receiver.received).toHaveLength(0);
    await api.post(`/me/bookings/${booked.body.id}/cancel`, {}, { token: host.token });
    await worker.runDueJobs();
    expect(receiver.received.map((r) => r.body.type)).toEqual(["booking.cancelled"]);
  });

  it("retries 500s with backoff: the 4th attempt arrives with the same webhook-id and succeeds", async () => {
    const { host, eventType, slots, webhook } = await setUp();
    receiver.answer = (n) => (n < 3 ? 500 : 200);
    const worker = await testWorker();
    expect((await book(host, eventType.slug, slots[0]!.startTime)).status).toBe(201);
    let now = clockNow();
    await worker.runDueJobs(now);
    expect(receiver.received).toHaveLength(1);

    const waits: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const [latest] = (await deliveries(host, webhook.id)).data;
      expect(latest).toMatchObject({ attempt, status: "failed", responseStatus: 500, error: "The endpoint answered 500" });
      const next = Date.parse(latest.nextRetryAt);
      waits.push(next - now);
      // Not before its time…
      await worker.runDueJobs(next - 1_000);
      expect(receiver.received).toHaveLength(attempt);
      // …and at it.
      now = next;
      await worker.runDueJobs(now);
      expect(receiver.received).toHaveLength(attempt + 1);
    }
    // 1, 2 and 4 minutes (jitter fixed at its middle in tests).
    expect(waits.map((w) => Math.round(w / 1000))).toEqual([60, 120, 240]);
    const ids = new Set(receiver.received.map((r) => r.id));
    expect(ids.size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.raw)).size).toBe(1); // the same bytes every time
    expect(receiver.received.every((r) => r.verifiedBy.length === 1)).toBe(true);

    const log = await deliveries(host, webhook.id);
    expect(log.pagination.total).toBe(4);
    expect(log.data.map((d) => [d.attempt, d.status, d.responseStatus, d.nextRetryAt === null])).toEqual([
      [4, "succeeded", 200, true],
      [3, "failed", 500, false],
      [2, "failed", 500, false],
      [1, "failed", 500, false],
    ]);
    expect(log.data.every((d) => d.messageId === [...ids][0] && d.durationMs >= 0)).toBe(true);
    expect(log.data[0].payload).toEqual(receiver.received[3]!.body);
    const page2 = await deliveries(host, webhook.id, "?limit=3&page=2");
    expect(page2.data.map((d) => d.attempt)).toEqual([1]);
    expect(await worker.runDueJobs(now + 48 * HOUR)).toBe(0);
  });

  it("gives up after about a day of retries, and marks the job failed", async () => {
    const { host, eventType, slots, webhook } = await setUp(["booking.created"]);
    receiver.answer = () => 503;
    const worker = await testWorker();
    await book(host, eventType.slug, slots[0]!.startTime);
    const t0 = clockNow();
    await worker.runDueJobs(t0);
    let now = t0;
    for (;;) {
      const [latest] = (await deliveries(host, webhook.id)).data;
      if (latest.nextRetryAt === null) break;
      now = Date.parse(latest.nextRetryAt);
      await worker.runDueJobs(now);
    }
    expect(receiver.received).toHaveLength(12);
    expect((now - t0) / HOUR).toBeGreaterThan(20);
    expect((now - t0) / HOUR).toBeLessThan(30);
    const [job] = (await jobsOfKind(WEBHOOK_DELIVERY)).filter((j) => (j.payload as { webhookId: string }).webhookId === webhook.id);
    expect(job).toMatchObject({ status: "failed", attempts: 12, lastError: "The endpoint answered 503" });
    expect(await worker.runDueJobs(now + 7 * 24 * HOUR)).toBe(0);
  });

  it("turns the endpoint off when it answers 410 Gone, and sends it nothing more", async () => {
    const { host, eventType, slots, webhook } = await setUp();
    receiver.answer = () => 410;
    const worker = await testWorker();
    const booked = await book(host, eventType.slug, slots[0]!.startTime);
    await worker.runDueJobs();
    expect(receiver.received).toHaveLength(1);
    const shown = (await api.get(`/me/webhooks/${webhook.id}`, { token: host.token })).body;
    expect(shown).toMatchObject({ isActive: false, disabledReason: expect.stringContaining("410") });
    expect((await deliveries(host, webhook.id)).data[0]).toMatchObject({ status: "failed", responseStatus: 410, nextRetryAt: null });

    await api.post(`/me/bookings/${booked.body.id}/cancel`, {}, { token: host.token });
    await worker.runDueJobs(Date.now() + 48 * HOUR);
    expect(receiver.received).toHaveLength(1);

    // Turned on again by the host, it receives again.
    receiver.answer = () => 200;
    const on = await api.patch(`/me/webhooks/${webhook.id}`, { isActive: true }, { token: host.token });
    expect(on.body).toMatchObject({ isActive: true, disabledReason: null });
    expect((await api.post(`/me/webhooks/${webhook.id}/test`, undefined, { token: host.token })).status).toBe(202);
    await worker.runDueJobs(Date.now() + 48 * HOUR);
    expect(receiver.received.map((r) => r.body.type)).toEqual(["booking.created", "webhook.test"]);
  });

  it("sends webhook.test through the same pipeline: signed, logged", async () => {
    const { host, webhook } = await setUp();
    const worker = await testWorker();
    const queued = await api.post(`/me/webhooks/${webhook.id}/test`, undefined, { token: host.token });
    await worker.runDueJobs();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]).toMatchObject({ id: queued.body.messageId, verifiedBy: [0], body: { type: "webhook.test", data: { webhookId: webhook.id } } });
    expect((await deliveries(host, webhook.id)).data).toEqual([
      expect.objectContaining({ messageId: queued.body.messageId, eventType: "webhook.test", status: "succeeded", attempt: 1 }),
    ]);
  });

  it("signs with both secrets for 24 hours after a rotation, then with the new one only", async () => {
    const { host, webhook } = await setUp();
    const worker = await testWorker();
    const rotated = await api.post(`/me/webhooks/${webhook.id}/rotate-secret`, undefined, { token: host.token });
    receiver.secrets = [webhook.secret, rotated.body.secret];

    await api.post(`/me/webhooks/${webhook.id}/test`, undefined, { token: host.token });
    await worker.runDueJobs();
    expect(receiver.received[0]!.signature.split(" ")).toHaveLength(2);
    expect(receiver.received[0]!.verifiedBy).toEqual([0, 1]); // either secret verifies

    await api.post(`/me/webhooks/${webhook.id}/test`, undefined, { token: host.token });
    await worker.runDueJobs(Date.parse(rotated.body.previousSecretExpiresAt) + 1_000);
    expect(receiver.received[1]!.signature.split(" ")).toHaveLength(1);
    expect(receiver.received[1]!.verifiedBy).toEqual([1]); // the old secret no longer does
  });

  it("a worker that dies mid-delivery: its lease runs out, another worker delivers, nothing else repeats", async () => {
    const { host, eventType, slots, webhook } = await setUp(["booking.created"]);
    receiver.answer = (n) => (n === 0 ? "hang" : 200);
    // The first worker hangs on the endpoint well past its 1 s lease (as a killed one would never finish).
    const dying = await testWorker({ leaseMs: 1_000, webhooks: { timeoutMs: 30_000 } });
    const rescuer = await testWorker({ leaseMs: 1_000 });
    await book(host, eventType.slug, slots[0]!.startTime);
    await book(host, eventType.slug, slots[2]!.startTime);
    const t0 = clockNow();
    const stuck = dying.runDueJobs(t0 + 1_000);
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(2);
    // The delivery that answered is recorded as done before the lease runs out (under load the
    // record can trail the request; a rescuer reading before it would rightly take that job too).
    const ofThisHook = async () => (await jobsOfKind(WEBHOOK_DELIVERY)).filter((j) => (j.payload as { webhookId: string }).webhookId === webhook.id);
    await expect.poll(async () => (await ofThisHook()).filter((j) => j.status === "done").length, { timeout: 10_000 }).toBe(1);

    // Before the lease runs out the job is not taken again; after, it is.
    await rescuer.runDueJobs(t0 + 1_500);
    expect(receiver.received).toHaveLength(2);
    await rescuer.runDueJobs(t0 + 2_500);
    expect(receiver.received).toHaveLength(3);
    receiver.release(); // the hung request ends; its worker finds the job is no longer its own
    await stuck;

    const ids = receiver.received.map((r) => r.id);
    expect(new Set(ids).size).toBe(2);
    const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(repeated).toEqual([receiver.received[0]!.id]); // only the hung one came twice
    expect(await rescuer.runDueJobs(t0 + 48 * HOUR)).toBe(0);
    expect(receiver.received).toHaveLength(3);
    expect((await ofThisHook()).map((j) => j.status)).toEqual(["done", "done"]);
    const log = await deliveries(host, webhook.id);
    expect(log.data.filter((d) => d.status === "succeeded")).toHaveLength(2);
  });

  it("refuses at delivery a host name that resolves to a private address", async () => {
    const { host, eventType, slots, webhook } = await setUp(["booking.created"], `http://localhost:${receiver.port}/hooks`);
    configure({ webhooksAllowPrivate: false });
    const worker = await testWorker();
    await book(host, eventType.slug, slots[0]!.startTime);
    await worker.runDueJobs();
    expect(receiver.received).toHaveLength(0);
    const [attempt] = (await deliveries(host, webhook.id)).data;
    expect(attempt).toMatchObject({ status: "failed", responseStatus: null, nextRetryAt: expect.any(String) });
    expect(attempt.error).toBe("Refused: localhost does not resolve to a public address");
  });

  it("logs a name that does not resolve in the words of a private one: the log is no DNS probe", async () => {
    const { host, eventType, slots, webhook } = await setUp(["booking.created"], `http://no-such-name.invalid:${receiver.port}/hooks`);
    configure({ webhooksAllowPrivate: false });
    const worker = await testWorker({ webhooks: { resolve: async () => Promise.reject(Object.assign(new Error("getaddrinfo ENOTFOUND no-such-name.invalid"), { code: "ENOTFOUND" })) } });
    await book(host, eventType.slug, slots[0]!.startTime);
    await worker.runDueJobs();
    const [attempt] = (await deliveries(host, webhook.id)).data;
    expect(attempt).toMatchObject({ status: "failed", responseStatus: null });
    expect(attempt.error).toBe("Refused: no-such-name.invalid does not resolve to a public address");
    expect(attempt.error).not.toContain("ENOTFOUND");
  });

  it("checks every address a name resolves to, and connects to the one it checked", async () => {
    configure({ webhooksAllowPrivate: true });
    const { host, webhook } = await setUp(undefined, `http://hooks.example.test:${receiver.port}/in`);
    // A resolver that answers for a name no DNS knows: the request can only arrive if the
    // connection used the address it returned.
    const pinned = await testWorker({ webhooks: { resolve: async () => [{ address: "127.0.0.1", family: 4 }] } });
    await api.post(`/me/webhooks/${webhook.id}/test`, undefined, { token: host.token });
    await pinned.runDueJobs();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers.host).toBe(`hooks.example.test:${receiver.port}`);

    // With private targets refused, one private address among public ones is enough to refuse.
    configure({ webhooksAllowPrivate: false });
    const mixed = await testWorker({
      webhooks: { resolve: async () => [{ address: "93.184.216.34", family: 4 }, { address: "10.0.0.7", family: 4 }] },
    });
    await api.post(`/me/webhooks/${webhook.id}/test`, undefined, { token: host.token });
    await mixed.runDueJobs();
    expect(receiver.received).toHaveLength(1);
    // The log names no address: which private address a name resolves to is not the host's to learn.
    expect((await deliveries(host, webhook.id)).data[0].error).toBe("Refused: hooks.example.test does not resolve to a public address");
  });

  it("skips messages for a webhook deleted or turned off after the event was fanned out", async () => {
    const { host, eventType, slots, webhook } = await setUp();
    const other = (await api.post("/me/webhooks", { url: receiver.url }, { token: host.token })).body;
    // Only the fan-out runs first: the delivery jobs exist when the webhooks change.
    const fanOutOnly = new JobWorker({ db: await getDb(), handlers: bookingEvents.map(bookingEventFanOut) });
    await book(host, eventType.slug, slots[0]!.startTime);
    expect(await fanOutOnly.runDueJobs()).toBe(1);
    await api.delete(`/me/webhooks/${webhook.id}`, { token: host.token });
    await api.patch(`/me/webhooks/${other.id}`, { isActive: false }, { token: host.token });
    await (await testWorker()).runDueJobs();
    expect(receiver.received).toHaveLength(0);
    const jobs = await (await getDb()).select().from(outboxJobs).where(eq(outboxJobs.kind, WEBHOOK_DELIVERY));
    expect(jobs.map((j) => j.status)).toEqual(["done", "done"]);
    expect((await deliveries(host, other.id)).data).toEqual([]);
  });
});

describe("webhooks narrowed to event types", () => {
  it("a narrowed webhook hears only of its event types' bookings, a team one's included; the others hear of all", async () => {
    await (await getDb()).delete(outboxJobs);
    configure({ webhooksAllowPrivate: true });
    receiver.received.length = 0;
    receiver.answer = () => 200;
    const date = dateIn(6, "UTC");
    const host = await createHost({ timezone: "UTC" });
    const partner = await createHost({ timezone: "UTC" });
    for (const h of [host, partner]) await openOnly(h, date);
    const intro = await createEventType(host, { title: "Intro call" });
    const review = await createEventType(host, { title: "Review" });
    const partners = await createEventType(partner, { title: "Partner's own" });
    // Both host the team's collective type: its bookings are each of theirs.
    const { team, eventType: panel } = await teamWithType(partner, [host], { schedulingType: "collective", title: "Panel" });

    const hook = async (who: TestHost, eventTypeIds?: string[]) => {
      const res = await api.post("/me/webhooks", { url: receiver.url, ...(eventTypeIds ? { eventTypeIds } : {}) }, { token: who.token });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as { id: string; secret: string };
    };
    const all = await hook(host);
    const introOnly = await hook(host, [intro.id]);
    const panelOnly = await hook(host, [panel.id]);
    const partnerOwnOnly = await hook(partner, [partners.id]);
    // Each message says which webhook it came to by the secret that verifies it.
    receiver.secrets = [all.secret, introOnly.secret, panelOnly.secret, partnerOwnOnly.secret];
    const names = ["all", "introOnly", "panelOnly", "partnerOwnOnly"];
    const heard = () => receiver.received.map((r) => r.verifiedBy.map((i) => names[i]).join("+")).sort();
    const worker = await testWorker();

    const slots = await getSlots(host, review.slug, date);
    expect((await book(host, review.slug, slots[0]!.startTime)).status).toBe(201);
    await worker.runDueJobs();
    expect(heard()).toEqual(["all"]);

    receiver.received.length = 0;
    const introBooking = await book(host, intro.slug, slots[2]!.startTime);
    expect(introBooking.status).toBe(201);
    await worker.runDueJobs();
    expect(heard()).toEqual(["all", "introOnly"]);

    receiver.received.length = 0;
    const teamStarts = await api.get(`/public/teams/${team.slug}/${panel.slug}/slots?from=${date}&to=${date}&timezone=UTC`, { headers: clientHeaders() });
    const free = (teamStarts.body.slots as { startTime: string }[]).at(-1)!.startTime;
    const teamBooking = await api.post(`/public/teams/${team.slug}/${panel.slug}/bookings`, { startTime: free, ...guest() }, { headers: { "idempotency-key": randomUUID(), ...clientHeaders() } });
    expect(teamBooking.status, JSON.stringify(teamBooking.body)).toBe(201);
    await worker.runDueJobs();
    expect(heard()).toEqual(["all", "panelOnly"]);

    // Cancelling the intro call reaches the same two as its booking did.
    receiver.received.length = 0;
    expect((await api.post(`/me/bookings/${introBooking.body.id}/cancel`, {}, { token: host.token })).status).toBe(200);
    await worker.runDueJobs();
    expect(heard()).toEqual(["all", "introOnly"]);

    // A test message is no booking: a narrowed webhook gets it all the same.
    receiver.received.length = 0;
    expect((await api.post(`/me/webhooks/${panelOnly.id}/test`, undefined, { token: host.token })).status).toBe(202);
    await worker.runDueJobs();
    expect(heard()).toEqual(["panelOnly"]);
  });
});
