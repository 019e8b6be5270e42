import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { paymentRefunds, payments, bookingHosts } from "@/db/schema";
import { getDb } from "@/lib/store/database";
import { api } from "../support/api";
import { insertBookingRow } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";

// GET /me/payments (decisions §20): a host sees the payments of the bookings they host, and
// only those, with the totals per currency of the range. Rows are written directly: no Stripe.

withTestDatabase();

const HOUR = 3_600_000;
/** Each booking its own hour, so no two of a host overlap. */
let nextStart = Date.now() + 48 * HOUR;

/** A booking of `host` with a payment of `amount` `currency` in `status`, made at `createdAt`. */
async function paidBooking(host: TestHost, eventTypeId: string, fields: { amount: number; currency: string; status?: "unpaid" | "paid" | "expired" | "failed"; createdAt?: Date; guestName?: string }) {
  const db = await getDb();
  const createdAt = fields.createdAt ?? new Date();
  const status = fields.status ?? "paid";
  const paymentId = `pay_${randomUUID()}`;
  nextStart += HOUR;
  const { row } = await insertBookingRow(host.id, eventTypeId, new Date(nextStart), 30, {
    guestName: fields.guestName ?? "Paying Guest",
    paymentId,
    paymentStatus: status === "paid" ? "paid" : "unpaid",
    priceAmount: fields.amount,
    priceCurrency: fields.currency,
  });
  await db.insert(payments).values({
    id: paymentId,
    bookingId: row.id,
    eventTypeId,
    hostId: host.id,
    unitAmount: fields.amount,
    amount: fields.amount,
    currency: fields.currency,
    refundableUntilHours: 24,
    status,
    holdExpiresAt: new Date(createdAt.getTime() + 15 * 60_000),
    paidAt: status === "paid" ? createdAt : null,
    createdAt,
  });
  return { bookingId: row.id, paymentId };
}

async function refund(paymentId: string, bookingId: string, amount: number, status: "pending" | "succeeded" = "succeeded") {
  const id = `rfd_${randomUUID()}`;
  await (await getDb()).insert(paymentRefunds).values({ id, paymentId, bookingId, amount, reason: "host_cancelled", status, refundedAt: status === "succeeded" ? new Date() : null });
  return id;
}

describe("GET /me/payments", () => {
  it("shows a host their own payments, with totals per currency (JPY and EUR), and nothing of another host's", async () => {
    const host = await createHost({ timezone: "Europe/Berlin" });
    const other = await createHost();
    const et = await createEventType(host);
    const otherEt = await createEventType(other);
    const a = await paidBooking(host, et.id, { amount: 4990, currency: "eur", guestName: "Ada" });
    const b = await paidBooking(host, et.id, { amount: 6000, currency: "eur" });
    await paidBooking(host, et.id, { amount: 5000, currency: "jpy" });
    await paidBooking(host, et.id, { amount: 3000, currency: "jpy" });
    await paidBooking(host, et.id, { amount: 4990, currency: "eur", status: "expired" });
    await paidBooking(host, et.id, { amount: 4990, currency: "eur", status: "unpaid" });
    await paidBooking(other, otherEt.id, { amount: 99900, currency: "eur" });
    const refundId = await refund(a.paymentId, a.bookingId, 4990);
    await refund(b.paymentId, b.bookingId, 6000, "pending");

    const res = await api.get("/me/payments", { token: host.token });
    expect(res.status).toBe(200);
    expect(res.body.configured).toBe(false);
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 6 });
    expect(res.body.data.every((p: { eventType: { id: string } }) => p.eventType.id === et.id)).toBe(true);
    expect(res.body.totals).toEqual([
      { currency: "eur", paid: 10990, refunded: 4990, net: 6000, count: 2 },
      { currency: "jpy", paid: 8000, refunded: 0, net: 8000, count: 2 },
    ]);
    const ada = res.body.data.find((p: { id: string }) => p.id === a.paymentId);
    expect(ada).toMatchObject({
      status: "paid",
      amount: 4990,
      currency: "eur",
      quantity: 1,
      eventType: { id: et.id, title: et.title },
      booking: { id: a.bookingId, guestName: "Ada", status: "confirmed" },
      refunds: [{ id: refundId, amount: 4990, reason: "host_cancelled", status: "succeeded" }],
    });

    const theirs = await api.get("/me/payments", { token: other.token });
    expect(theirs.body.data).toHaveLength(1);
    expect(theirs.body.totals).toEqual([{ currency: "eur", paid: 99900, refunded: 0, net: 99900, count: 1 }]);
  });

  it("filters by status and by dates in the host's zone, and pages", async () => {
    const host = await createHost({ timezone: "America/New_York" });
    const et = await createEventType(host);
    // 2027-03-10 01:00 UTC is still the 9th in New York.
    await paidBooking(host, et.id, { amount: 1000, currency: "usd", createdAt: new Date("2027-03-10T01:00:00Z") });
    await paidBooking(host, et.id, { amount: 2000, currency: "usd", createdAt: new Date("2027-03-10T12:00:00Z") });
    await paidBooking(host, et.id, { amount: 3000, currency: "usd", createdAt: new Date("2027-03-10T13:00:00Z"), status: "expired" });

    const onThe10th = await api.get("/me/payments?from=2027-03-10&to=2027-03-10", { token: host.token });
    expect(onThe10th.body.data.map((p: { amount: number }) => p.amount)).toEqual([3000, 2000]);
    expect(onThe10th.body.totals).toEqual([{ currency: "usd", paid: 2000, refunded: 0, net: 2000, count: 1 }]);

    const expired = await api.get("/me/payments?status=expired", { token: host.token });
    expect(expired.body.data.map((p: { amount: number }) => p.amount)).toEqual([3000]);
    // The totals keep to the range, whatever the status shown.
    expect(expired.body.totals).toEqual([{ currency: "usd", paid: 3000, refunded: 0, net: 3000, count: 2 }]);

    const second = await api.get("/me/payments?limit=2&page=2", { token: host.token });
    expect(second.body.data.map((p: { amount: number }) => p.amount)).toEqual([1000]);
    expect(second.body.pagination).toEqual({ page: 2, limit: 2, total: 3 });

    expect((await api.get("/me/payments?from=2027-03-11&to=2027-03-10", { token: host.token })).status).toBe(400);
    expect((await api.get("/me/payments?status=refunded", { token: host.token })).status).toBe(400);
  });

  it("shows a team booking's payment to every host of the booking", async () => {
    const host = await createHost();
    const coHost = await createHost();
    const stranger = await createHost();
    const et = await createEventType(host);
    const { bookingId, paymentId } = await paidBooking(host, et.id, { amount: 4500, currency: "gbp" });
    const db = await getDb();
    const start = new Date(nextStart);
    await db.insert(bookingHosts).values({ bookingId, userId: coHost.id, blockedStart: start, blockedEnd: new Date(nextStart + 30 * 60_000), cancelled: false, startTime: start, status: "confirmed" });

    expect((await api.get("/me/payments", { token: coHost.token })).body.data.map((p: { id: string }) => p.id)).toEqual([paymentId]);
    expect((await api.get("/me/payments", { token: stranger.token })).body.data).toEqual([]);
  });
});
