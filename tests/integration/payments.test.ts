import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookingHistory, bookings, outboxJobs, paymentRefunds, payments } from "@/db/schema";
import { getConfig } from "@/lib/config";
import { sweepUnpaidHolds } from "@/lib/jobs/housekeeping";
import { getDb } from "@/lib/store/database";
import { api } from "../support/api";
import { startAppServer, type AppServer } from "../support/app-server";
import { book, clientHeaders, dateIn, getSlots, guest, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { startFakeStripe, type FakeSession, type FakeStripe } from "../support/fake-stripe";
import { configure, testWorker } from "../support/jobs";
import { startReceiver } from "../support/webhook-receiver";

// Paid sessions (decisions §20) through the official `stripe` library, pointed at a local server
// that speaks Stripe's wire format, and Stripe's signed events sent over real HTTP to the app's
// webhook: a paid hold is confirmed once and told of only then; a hold not paid in time frees the
// time and closes the Checkout; a payment after that is given back; refunds follow the rules and
// are made once, however often the job runs or Stripe fails.

// A database of the file's own on PostgreSQL: the outbox worker and the hold sweep run here take
// every due job and every expired hold in their database, another file's included were it shared.
withTestDatabase({ isolated: true });

let stripe: FakeStripe;
let app: AppServer;
beforeAll(async () => {
  app = await startAppServer();
  stripe = await startFakeStripe({ webhookUrl: `${app.url}/api/v1/hooks/stripe` });
});
afterAll(async () => {
  await stripe?.close();
  await app?.close();
});

const MINUTE = 60_000;
const as = (host: TestHost) => ({ token: host.token });

function paymentsOn(holdMinutes = 15) {
  configure({ payments: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiUrl: stripe.url, holdMinutes } });
}

/** A host with a paid event type and a morning open four days ahead: the event type and the first start. */
async function paidEventType(fields: Record<string, unknown> = {}, price: Record<string, unknown> = {}) {
  paymentsOn();
  const host = await createHost({ timezone: "Europe/Berlin" });
  const et = await createEventType(host, { durationMinutes: 30, price: { amount: 4990, currency: "eur", ...price }, ...fields });
  const date = dateIn(4, host.timezone);
  await openOnly(host, date);
  const [first] = await getSlots(host, et.slug, date);
  return { host, et, date, start: first!.startTime };
}

async function bookingRow(id: string) {
  const [row] = await (await getDb()).select().from(bookings).where(eq(bookings.id, id));
  return row!;
}

async function paymentRow(bookingId: string) {
  const [row] = await (await getDb()).select().from(payments).where(eq(payments.id, (await bookingRow(bookingId)).paymentId!));
  return row!;
}

async function kindsFor(bookingId: string): Promise<string[]> {
  const rows = await (await getDb()).select({ kind: outboxJobs.kind, payload: outboxJobs.payload }).from(outboxJobs);
  return rows.filter((r) => (r.payload as { bookingId?: string }).bookingId === bookingId).map((r) => r.kind);
}

async function historyOf(bookingId: string): Promise<string[]> {
  const rows = await (await getDb()).select({ action: bookingHistory.action }).from(bookingHistory).where(eq(bookingHistory.bookingId, bookingId)).orderBy(bookingHistory.id);
  return rows.map((r) => r.action);
}

/** Every morning open: a series' later weeks too (the first date's override alone leaves them closed). */
async function everyMorning(host: TestHost) {
  const weeklyRules = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: "09:00", endTime: "12:00" }));
  expect((await api.put("/me/availability", { minNoticeHours: 0, maxAdvanceDays: 60, weeklyRules, dateOverrides: [] }, as(host))).status).toBe(200);
}

const sessionOf = (checkoutUrl: string) => checkoutUrl.split("/").pop()!;

/** Runs the outbox's due jobs at `now` until none is left (the refund and Checkout jobs). */
async function runJobs(now = Date.now()) {
  const worker = await testWorker();
  for (let i = 0; i < 10 && (await worker.runDueJobs(now)) > 0; i++);
}

describe("a price on an event type", () => {
  it("is refused in plain words while payments are not set up, and taking it off always works", async () => {
    configure({ payments: undefined });
    const host = await createHost();
    const refused = await api.post("/me/event-types", { slug: "paid", title: "Paid", durationMinutes: 30, price: { amount: 4990, currency: "eur" } }, as(host));
    expect(refused.status).toBe(400);
    expect(refused.body.details.issues).toEqual([{ path: "price", message: expect.stringContaining("Payments are not set up") }]);
    const free = await createEventType(host, { price: null });
    expect(free.price).toBeNull();
  });

  it("takes minor units of a real currency, at least 50, and a refund window of 0–720 hours", async () => {
    paymentsOn();
    const host = await createHost();
    const et = await createEventType(host, { price: { amount: 5000, currency: "jpy" } });
    expect(et.price).toEqual({ amount: 5000, currency: "jpy", refundableUntilHours: 24 });
    for (const [price, path] of [
      [{ amount: 49, currency: "eur" }, "price.amount"],
      [{ amount: 4990, currency: "EUR" }, "price.currency"],
      [{ amount: 4990, currency: "xyz" }, "price.currency"],
      [{ amount: 49.5, currency: "eur" }, "price.amount"],
      [{ amount: 4990, currency: "eur", refundableUntilHours: 721 }, "price.refundableUntilHours"],
    ] as const) {
      const res = await api.patch(`/me/event-types/${et.id}`, { price }, as(host));
      expect(res.status, JSON.stringify(price)).toBe(400);
      expect(res.body.details.issues[0].path).toBe(path);
    }
    expect((await api.get("/me/event-types", as(host))).body.data.find((e: { id: string }) => e.id === et.id).price.amount).toBe(5000);
  });
});

describe("booking a paid time", () => {
  it("holds the time awaiting payment, tells no one, and sends the guest to a Checkout in their language", async () => {
    const { host, et, date, start } = await paidEventType();
    const res = await book(host, et.slug, start, { guestLanguage: "de", guestEmail: "ada@example.com" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.status).toBe("awaiting_payment");
    expect(res.body.payment).toMatchObject({ status: "unpaid", amount: 4990, currency: "eur" });
    const session = stripe.session(sessionOf(res.body.payment.checkoutUrl))!;
    expect(session).toMatchObject({ amount_total: 4990, currency: "eur", customer_email: "ada@example.com", locale: "de", status: "open" });
    expect(session.metadata.bookingId).toBe(res.body.id);
    expect(session.success_url).toBe(`${res.body.manageUrl}?payment=done`);
    // Held: nobody else gets the time; told: nobody yet.
    expect((await getSlots(host, et.slug, date)).map((s) => s.startTime)).not.toContain(start);
    expect(await kindsFor(res.body.id)).toEqual([]);
    const held = Date.parse(res.body.payment.holdExpiresAt) - Date.now();
    expect(held).toBeGreaterThan(14 * MINUTE);
    expect(held).toBeLessThanOrEqual(15 * MINUTE);
  });

  it("is confirmed by Stripe's signed event, once, and only then told of (booking.created and booking.paid)", async () => {
    const { host, et, start } = await paidEventType();
    const res = await book(host, et.slug, start);
    const event = await stripe.complete(sessionOf(res.body.payment.checkoutUrl), { send: false });
    const first = await stripe.send(event);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toEqual({ received: true, outcome: "applied" });
    // Stripe sends again (it did not hear us, say): the same event changes nothing.
    expect(JSON.parse((await stripe.send(event)).body).outcome).toBe("duplicate");
    const row = await bookingRow(res.body.id);
    expect(row).toMatchObject({ status: "confirmed", paymentStatus: "paid" });
    expect((await paymentRow(row.id)).status).toBe("paid");
    expect((await kindsFor(row.id)).sort()).toEqual(["booking.created", "booking.paid"]);
    expect(await historyOf(row.id)).toEqual(["created", "paid"]);
    const shown = await api.get(`/me/bookings?eventTypeId=${et.id}`, as(host));
    expect(shown.body.data.map((b: { payment: unknown }) => b.payment)).toEqual([{ status: "paid", amount: 4990, currency: "eur" }]);
  });

  it("becomes a request when the event type needs approval; a decline refunds it in full", async () => {
    const { host, et, start } = await paidEventType({ requiresConfirmation: true });
    const res = await book(host, et.slug, start);
    await stripe.complete(sessionOf(res.body.payment.checkoutUrl));
    expect((await bookingRow(res.body.id)).status).toBe("pending");
    expect((await api.post(`/me/bookings/${res.body.id}/decline`, {}, as(host))).status).toBe(200);
    await runJobs();
    const refund = stripe.refunds.at(-1)!;
    expect(refund).toMatchObject({ amount: 4990, payment_intent: (await paymentRow(res.body.id)).paymentIntentId });
    const [decided] = await (await getDb()).select().from(paymentRefunds).where(eq(paymentRefunds.bookingId, res.body.id));
    expect(decided).toMatchObject({ reason: "declined", status: "succeeded", stripeRefundId: refund.id });
  });

  it("refuses a forged or stale signature and changes nothing", async () => {
    const { host, et, start } = await paidEventType();
    const res = await book(host, et.slug, start);
    const event = await stripe.complete(sessionOf(res.body.payment.checkoutUrl), { send: false });
    const forged = await stripe.send(event, { secret: "whsec_someoneelse0000" });
    expect(forged.status).toBe(400);
    expect(JSON.parse(forged.body).error).toBe("validation_error");
    const stale = await stripe.send(event, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(stale.status).toBe(400);
    const unsigned = await api.post("/hooks/stripe", event);
    expect(unsigned.status).toBe(400);
    expect((await bookingRow(res.body.id)).status).toBe("awaiting_payment");
    // The true one still applies: the refused ones did not mark the event as seen.
    expect(JSON.parse((await stripe.send(event)).body).outcome).toBe("applied");
  });

  it("releases the hold when Stripe cannot make the Checkout: 503, the time free, the same key books again", async () => {
    const { host, et, date, start } = await paidEventType();
    configure({ payments: { ...getConfig().payments!, apiUrl: "http://127.0.0.1:9" } });
    const key = randomUUID();
    const down = await book(host, et.slug, start, {}, key);
    expect(down.status).toBe(503);
    expect(down.body.message).toMatch(/Nothing was booked/);
    // Stripe's own words (they may name the key) stay in the log.
    expect(down.body.details).toEqual({});
    expect((await getSlots(host, et.slug, date)).map((s) => s.startTime)).toContain(start);
    paymentsOn();
    const again = await book(host, et.slug, start, {}, key);
    expect(again.status).toBe(201);
    expect(again.body.payment.checkoutUrl).toContain(stripe.url);
  });

  it("answers a replay with the same Checkout", async () => {
    const { host, et, start } = await paidEventType();
    const key = randomUUID();
    const body = { startTime: start, ...guest() };
    const headers = { "idempotency-key": key, ...clientHeaders() };
    const first = await api.post(`/public/${host.username}/${et.slug}/bookings`, body, { headers });
    const second = await api.post(`/public/${host.username}/${et.slug}/bookings`, body, { headers });
    expect(second.status).toBe(201);
    expect(second.body.payment.checkoutUrl).toBe(first.body.payment.checkoutUrl);
    expect(stripe.sessions.filter((s) => s.metadata.bookingId === first.body.id)).toHaveLength(1);
  });
});

describe("a hold not paid in time", () => {
  it("is released by the sweep, its Checkout closed at Stripe, the time free again", async () => {
    const { host, et, date, start } = await paidEventType();
    const res = await book(host, et.slug, start);
    const sessionId = sessionOf(res.body.payment.checkoutUrl);
    await sweepUnpaidHolds(await getDb(), Date.now() + 14 * MINUTE);
    expect((await bookingRow(res.body.id)).status).toBe("awaiting_payment");
    expect(await sweepUnpaidHolds(await getDb(), Date.now() + 16 * MINUTE)).toBeGreaterThanOrEqual(1);
    expect(await bookingRow(res.body.id)).toMatchObject({ status: "cancelled", cancelledBy: "system", paymentStatus: "unpaid" });
    expect((await getSlots(host, et.slug, date)).map((s) => s.startTime)).toContain(start);
    await runJobs(Date.now() + 16 * MINUTE);
    expect(stripe.session(sessionId)!.status).toBe("expired");
    // Stripe's own word of the expiry, arriving after: nothing more to do.
    await stripe.settled();
    expect(await kindsFor(res.body.id)).not.toContain("booking.cancelled");
  });

  it("refunds a payment that lands after the hold ended, in full, and tells the guest", async () => {
    const { host, et, start } = await paidEventType();
    const res = await book(host, et.slug, start);
    const event = await stripe.complete(sessionOf(res.body.payment.checkoutUrl), { send: false });
    await sweepUnpaidHolds(await getDb(), Date.now() + 16 * MINUTE);
    expect(JSON.parse((await stripe.send(event)).body).outcome).toBe("applied");
    const row = await bookingRow(res.body.id);
    expect(row).toMatchObject({ status: "cancelled", paymentStatus: "refunded" });
    expect(await kindsFor(row.id)).not.toContain("booking.created");
    await runJobs();
    const intent = (event.data.object as FakeSession).payment_intent;
    expect(stripe.refunds.filter((r) => r.payment_intent === intent)).toEqual([expect.objectContaining({ amount: 4990 })]);
    const late = (await (await getDb()).select().from(outboxJobs).where(eq(outboxJobs.kind, "email.payment_late"))).filter(
      (j) => (j.payload as { paymentId: string }).paymentId === row.paymentId,
    );
    expect(late).toHaveLength(1);
  });

  it("ignores Stripe's expiry arriving after the payment, and ends the hold on an expiry arriving first", async () => {
    const { host, et, start } = await paidEventType();
    const paid = await book(host, et.slug, start);
    const completed = await stripe.complete(sessionOf(paid.body.payment.checkoutUrl), { send: false });
    const expiredLater = stripe.makeEvent("checkout.session.expired", { ...(completed.data.object as FakeSession), status: "expired" });
    await stripe.send(completed);
    expect(JSON.parse((await stripe.send(expiredLater)).body).outcome).toBe("ignored");
    expect((await bookingRow(paid.body.id)).status).toBe("confirmed");

    const { host: other, et: otherType, start: otherStart } = await paidEventType();
    const held = await book(other, otherType.slug, otherStart);
    await stripe.expire(sessionOf(held.body.payment.checkoutUrl));
    expect(await bookingRow(held.body.id)).toMatchObject({ status: "cancelled", cancelledBy: "system" });
  });
});

describe("refunds by the rules", () => {
  it("gives a host's cancel back in full, once, though Stripe fails twice first", async () => {
    const { host, et, start } = await paidEventType();
    const res = await book(host, et.slug, start);
    await stripe.complete(sessionOf(res.body.payment.checkoutUrl));
    const cancelled = await api.post(`/me/bookings/${res.body.id}/cancel`, { reason: "Ill" }, as(host));
    expect(cancelled.body.payment).toEqual({ status: "refunded", amount: 4990, currency: "eur" });
    stripe.failRefunds(2);
    const intent = (await paymentRow(res.body.id)).paymentIntentId!;
    // Each run past the backoff tries again; Stripe keeps the Idempotency-Key's refund.
    for (const later of [0, 2, 10, 60].map((m) => Date.now() + m * MINUTE)) await runJobs(later);
    expect(stripe.refundCount(intent)).toBe(1);
    expect(await historyOf(res.body.id)).toEqual(["created", "paid", "cancelled", "refund_requested", "refunded"]);
    expect((await kindsFor(res.body.id)).filter((k) => k === "booking.refunded")).toHaveLength(1);
  });

  it("gives a guest's cancel back inside the window and keeps it after", async () => {
    const inside = await paidEventType({}, { refundableUntilHours: 24 });
    const a = await book(inside.host, inside.et.slug, inside.start);
    await stripe.complete(sessionOf(a.body.payment.checkoutUrl));
    const token = String(a.body.cancelUrl).split("/").pop();
    const refunded = await api.post("/public/cancel", { token }, { headers: clientHeaders() });
    expect(refunded.status).toBe(200);
    expect(refunded.body.message).toMatch(/A refund of €49\.90 is on its way to you\.$/);
    expect((await bookingRow(a.body.id)).paymentStatus).toBe("refunded");

    // Four days ahead, a window of 30 days: already past it.
    const outside = await paidEventType({}, { refundableUntilHours: 720 });
    const b = await book(outside.host, outside.et.slug, outside.start);
    await stripe.complete(sessionOf(b.body.payment.checkoutUrl));
    const tokenB = String(b.body.cancelUrl).split("/").pop();
    const kept = await api.post("/public/cancel", { token: tokenB }, { headers: clientHeaders() });
    expect(kept.status).toBe(200);
    expect(kept.body.message).toMatch(/This cancellation is not refunded\.$/);
    const row = await bookingRow(b.body.id);
    expect(row).toMatchObject({ status: "cancelled", paymentStatus: "paid" });
    expect(await (await getDb()).select().from(paymentRefunds).where(eq(paymentRefunds.bookingId, row.id))).toEqual([]);
  });

  it("refuses to move a booking still awaiting its payment", async () => {
    const { host, et, start } = await paidEventType();
    const res = await book(host, et.slug, start);
    const moved = await api.post(`/me/bookings/${res.body.id}/reschedule`, { startTime: new Date(Date.parse(start) + 30 * MINUTE).toISOString() }, as(host));
    expect(moved.status, JSON.stringify(moved.body)).toBe(409);
    expect(moved.body.error).toBe("booking_not_modifiable");
  });
});

describe("the host's endpoints", () => {
  it("hear booking.paid once paid and booking.refunded once Stripe gave the money back, signed like every message", async () => {
    const receiver = await startReceiver();
    try {
      configure({ webhooksAllowPrivate: true });
      const { host, et, start } = await paidEventType();
      const hook = await api.post("/me/webhooks", { url: receiver.url, events: ["booking.created", "booking.paid", "booking.refunded"] }, as(host));
      expect(hook.status).toBe(201);
      receiver.secrets = [hook.body.secret];
      const res = await book(host, et.slug, start);
      await runJobs();
      expect(receiver.received).toEqual([]);
      await stripe.complete(sessionOf(res.body.payment.checkoutUrl));
      await runJobs();
      await api.post(`/me/bookings/${res.body.id}/cancel`, {}, as(host));
      await runJobs();
      await runJobs();
      const types = receiver.received.map((r) => r.body.type);
      expect(types.sort()).toEqual(["booking.created", "booking.paid", "booking.refunded"]);
      const paid = receiver.received.find((r) => r.body.type === "booking.paid")!;
      expect(paid.body.data).toMatchObject({ id: res.body.id, status: "confirmed", payment: { status: "paid", amount: 4990, currency: "eur" } });
      const refunded = receiver.received.find((r) => r.body.type === "booking.refunded")!;
      expect(refunded.body.data).toMatchObject({ bookingId: res.body.id, amount: 4990, currency: "eur", reason: "host_cancelled", refundId: expect.stringMatching(/^rfd_/) });
      expect(receiver.received.every((r) => r.verifiedBy.length === 1)).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});

describe("seats and series", () => {
  it("has each seat pay for itself", async () => {
    const { host, et, start } = await paidEventType({ seats: { max: 3 } });
    const one = await book(host, et.slug, start);
    const two = await book(host, et.slug, start);
    expect(one.body.payment.checkoutUrl).not.toBe(two.body.payment.checkoutUrl);
    await stripe.complete(sessionOf(one.body.payment.checkoutUrl));
    expect((await bookingRow(one.body.id)).status).toBe("confirmed");
    expect((await bookingRow(two.body.id)).status).toBe("awaiting_payment");
  });

  it("pays a series once for all its occurrences, and refunds a cancelled occurrence's own share", async () => {
    const { host, et, start } = await paidEventType({ recurrence: { everyWeeks: 1, maxOccurrences: 4 } }, { amount: 3000 });
    await everyMorning(host);
    const res = await book(host, et.slug, start, { occurrences: 3 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.payment).toMatchObject({ amount: 9000, currency: "eur" });
    const session = sessionOf(res.body.payment.checkoutUrl);
    expect(stripe.lineItems(session)).toEqual([expect.objectContaining({ unitAmount: 3000, quantity: 3 })]);
    await stripe.complete(session);
    const ids = res.body.series.occurrences.map((o: { id: string }) => o.id);
    for (const id of ids) expect(await bookingRow(id)).toMatchObject({ status: "confirmed", paymentStatus: "paid", priceAmount: 3000 });
    await api.post(`/me/bookings/${ids[1]}/cancel`, {}, as(host));
    await runJobs();
    const intent = (await paymentRow(ids[0])).paymentIntentId!;
    expect(stripe.refunds.filter((r) => r.payment_intent === intent).map((r) => r.amount)).toEqual([3000]);
    expect((await bookingRow(ids[0])).paymentStatus).toBe("paid");
  });

  it("ends a whole unpaid series when one of it is cancelled", async () => {
    const { host, et, start } = await paidEventType({ recurrence: { everyWeeks: 1, maxOccurrences: 4 } });
    await everyMorning(host);
    const res = await book(host, et.slug, start, { occurrences: 2 });
    const token = String(res.body.cancelUrl).split("/").pop();
    expect((await api.post("/public/cancel", { token }, { headers: clientHeaders() })).status).toBe(200);
    const rows = await (await getDb()).select().from(bookings).where(and(eq(bookings.seriesId, res.body.series.id)));
    expect(rows.map((r) => r.status)).toEqual(["cancelled", "cancelled"]);
    expect((await paymentRow(res.body.id)).status).toBe("expired");
  });
});
