import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { bookings, eventTypes, payments, stripeEvents, type PaymentRow } from "@/db/schema";
import { toBooking } from "@/lib/dto";
import { enqueueBookingEvent } from "@/lib/outbox/booking-events";
import { enqueueJobs } from "@/lib/outbox/enqueue";
import { PAYMENT_LATE_EMAIL } from "@/lib/outbox/kinds";
import type { PaymentJob } from "@/lib/outbox/payloads";
import type { StripeCheckoutSession, StripeEvent } from "@/lib/payments/stripe";
import { bookingIdsOfPayment, endHoldUnderLocks } from "./checkout";
import { GUEST, recordHistory, SYSTEM } from "./history";
import { loadBookingPeople, peopleView } from "./people";
import { decideRefund } from "./refunds";
import { writeBookings } from "./write-booking";

// Stripe's word on a Checkout (decisions §20), applied once. Stripe sends an event until it hears
// 2xx, may send it twice and in any order; each is applied in one transaction with its id
// written to stripe_events (a second delivery finds it and changes nothing), under the locks of
// the payment's bookings and the payment's own row, so a payment and the hold's expiry racing
// on two instances have exactly one outcome:
// - paid while held: the bookings are confirmed (pending with approval), and only now told of:
//   booking.created (its emails, calendar writes, reminders, webhooks) and booking.paid;
// - paid after the hold ended (the time is gone): the whole payment goes back at once, and the
//   guest is told so;
// - ended unpaid at Stripe: the hold ends as the sweep would end it.

/** What applying an event did: changed something, found it applied before, or had nothing to do with it. */
export type EventOutcome = "applied" | "duplicate" | "ignored";

const PAID = new Set(["checkout.session.completed", "checkout.session.async_payment_succeeded"]);
const ENDED = new Set(["checkout.session.expired", "checkout.session.async_payment_failed"]);

/** The payment a session pays: by its id, else by the payment id it carries (a session made just before a crash, not yet kept). */
async function paymentOfSession(db: Db, session: StripeCheckoutSession): Promise<PaymentRow | undefined> {
  const [bySession] = await db.select().from(payments).where(eq(payments.checkoutSessionId, session.id));
  if (bySession) return bySession;
  const id = session.client_reference_id ?? session.metadata?.paymentId;
  if (!id) return undefined;
  const [byId] = await db.select().from(payments).where(eq(payments.id, id));
  return byId && (byId.checkoutSessionId === null || byId.checkoutSessionId === session.id) ? byId : undefined;
}

/** Writes the event's id; false when it was written before (the event was applied already). */
async function firstDelivery(tx: Tx, event: StripeEvent, now: number): Promise<boolean> {
  const inserted = await tx.insert(stripeEvents).values({ id: event.id, type: event.type, receivedAt: new Date(now) }).onConflictDoNothing().returning({ id: stripeEvents.id });
  return inserted.length > 0;
}

/** Applies a verified Stripe event (POST /hooks/stripe). */
export async function applyStripeEvent(db: Db, event: StripeEvent, now: number): Promise<EventOutcome> {
  if (!PAID.has(event.type) && !ENDED.has(event.type)) return "ignored";
  const session = event.data.object as StripeCheckoutSession;
  const found = await paymentOfSession(db, session);
  if (!found) return "ignored";
  const ids = await bookingIdsOfPayment(db, found.id);
  return writeBookings(db, ids, async (tx) => {
    if (!(await firstDelivery(tx, event, now))) return "duplicate";
    const [payment] = await tx.select().from(payments).where(eq(payments.id, found.id)).for("update");
    if (!payment) return "ignored";
    if (ENDED.has(event.type)) {
      if (payment.status !== "unpaid") return "ignored";
      await endHoldUnderLocks(tx, payment, "expired", now);
      return "applied";
    }
    // Completed with a payment method that settles later (a bank debit): its own event follows.
    if (session.payment_status !== "paid") return "ignored";
    if (payment.status === "paid") return "ignored";
    const intent = typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null);
    await tx
      .update(payments)
      .set({ status: "paid", paidAt: new Date(now), paymentIntentId: intent, checkoutSessionId: session.id, updatedAt: new Date(now) })
      .where(eq(payments.id, payment.id));
    if (payment.status === "unpaid") await confirmPaid(tx, payment, now);
    else await givePaymentBack(tx, payment, now);
    return "applied";
  });
}

/**
 * The guest paid in time: every booking of the payment still awaiting it is confirmed (a request
 * while the event type needs approval), and now told of, as a new booking is: booking.created,
 * then booking.paid.
 */
async function confirmPaid(tx: Tx, payment: PaymentRow, now: number): Promise<void> {
  const [eventType] = await tx.select().from(eventTypes).where(eq(eventTypes.id, payment.eventTypeId));
  const status = eventType!.requiresConfirmation ? "pending" : "confirmed";
  const paid = await tx
    .update(bookings)
    .set({ status, paymentStatus: "paid" })
    .where(and(eq(bookings.paymentId, payment.id), eq(bookings.status, "awaiting_payment")))
    .returning();
  if (paid.length === 0) return givePaymentBack(tx, payment, now);
  paid.sort((a, b) => a.startTime.getTime() - b.startTime.getTime() || a.id.localeCompare(b.id));
  // Read after the update: a series' occurrences all show their new status.
  const people = await loadBookingPeople(tx, paid.map((b) => b.id));
  for (const booking of paid) {
    const them = people.get(booking.id) ?? { hosts: [], team: null };
    const hostIds = them.hosts.map((h) => h.userId);
    const data = toBooking(booking, eventType!, peopleView(them));
    await recordHistory(tx, booking.id, "paid", GUEST, now, { paymentId: payment.id, amount: booking.priceAmount, currency: payment.currency });
    await enqueueBookingEvent(tx, "booking.created", booking, { hostIds }, now, data);
    await enqueueBookingEvent(tx, "booking.paid", booking, { hostIds }, now, data);
  }
}

/**
 * A payment that landed after its hold had ended (or whose bookings were all cancelled meanwhile):
 * the time may be someone else's now, so the whole payment goes back at once and the guest is
 * told (PAYMENT_LATE_EMAIL). Decided once: the refund's row is one per payment's first booking.
 */
async function givePaymentBack(tx: Tx, payment: PaymentRow, now: number): Promise<void> {
  const refund = await decideRefund(tx, { paymentId: payment.id, bookingId: payment.bookingId, amount: payment.amount, currency: payment.currency, reason: "late_payment", by: SYSTEM, now });
  if (!refund) return;
  const ids = await bookingIdsOfPayment(tx, payment.id);
  await tx.update(bookings).set({ paymentStatus: "refunded" }).where(inArray(bookings.id, ids));
  await enqueueJobs(tx, [{ kind: PAYMENT_LATE_EMAIL, dedupeKey: `payment-late:${payment.id}`, payload: { paymentId: payment.id } satisfies PaymentJob }], now);
}
