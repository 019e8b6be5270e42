import "server-only";
import { and, asc, eq, lte, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { bookings, idempotencyKeys, payments, type BookingRow, type EventTypeRow, type PaymentRow } from "@/db/schema";
import { getConfig, type PaymentsConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { andList } from "@/lib/i18n/fill";
import { asLocale } from "@/lib/i18n/locales";
import { enqueueJobs } from "@/lib/outbox/enqueue";
import { CHECKOUT_EXPIRE } from "@/lib/outbox/kinds";
import type { PaymentJob } from "@/lib/outbox/payloads";
import { createCheckoutSession } from "@/lib/payments/stripe";
import { isoUtc } from "@/lib/time/instants";
import { sentenceMoment } from "@/lib/time/in-words";
import type { Claim } from "@/lib/store/idempotency";
import { recordHistory, SYSTEM } from "./history";
import { writeBookings } from "./write-booking";

// A paid booking's hold and its Checkout (decisions §20). The booking is made like any other,
// under the same locks, by the same engine, but `awaiting_payment`: it holds its time and tells
// no one yet. Its payment row is written in the same transaction. After the commit the guest's
// Checkout Session is made at Stripe (the payment's id is its Idempotency-Key, so a retry finds
// the same session); when Stripe cannot make one, the hold is released at once and the guest
// hears that nothing was booked. A hold that nobody pays ends after PAYMENT_HOLD_MINUTES
// (endHold, from the housekeeping sweep or Stripe's own `checkout.session.expired`): the time is
// free again and the session is closed at Stripe, so a late payment cannot land (if one does
// anyway, payment-events.ts gives it back).

const MINUTE = 60_000;
/** Stripe keeps a Checkout Session open at least this long; our hold is shorter and the sweep closes it. */
const STRIPE_MIN_SESSION_MS = 31 * MINUTE;
const BATCH = 100;

/** The payments configuration, or 503 when a paid event type is booked while payments are not set up. */
export function paymentsOrThrow(): PaymentsConfig {
  const config = getConfig().payments;
  if (!config) throw new AppError("service_unavailable", "This event type takes payment, and payments are not available right now. Nothing was booked; please try again later.");
  return config;
}

/** Writes the payment a new paid booking (or series) waits for, in the booking's transaction. */
export async function holdForPayment(
  tx: Tx,
  args: { paymentId: string; bookingId: string; eventType: EventTypeRow; hostId: string; seriesId: string | null; quantity: number; now: number },
): Promise<PaymentRow> {
  const price = args.eventType.price!;
  const [row] = await tx
    .insert(payments)
    .values({
      id: args.paymentId,
      bookingId: args.bookingId,
      eventTypeId: args.eventType.id,
      hostId: args.hostId,
      seriesId: args.seriesId,
      quantity: args.quantity,
      unitAmount: price.amount,
      amount: price.amount * args.quantity,
      currency: price.currency,
      refundableUntilHours: price.refundableUntilHours,
      holdExpiresAt: new Date(args.now + paymentsOrThrow().holdMinutes * MINUTE),
      createdAt: new Date(args.now),
      updatedAt: new Date(args.now),
    })
    .returning();
  return row!;
}

/** The payment as the guest's answer shows it: what the Checkout charges, and where to pay while it is open. */
export type CheckoutView = { status: "unpaid" | "paid" | "refunded"; amount: number; currency: string; checkoutUrl: string | null; holdExpiresAt: string };

function checkoutView(payment: PaymentRow, bookingStatus: BookingRow["paymentStatus"], now: number): CheckoutView {
  const open = payment.status === "unpaid" && payment.holdExpiresAt.getTime() > now;
  return {
    status: bookingStatus ?? "unpaid",
    amount: payment.amount,
    currency: payment.currency,
    checkoutUrl: open ? payment.checkoutUrl : null,
    holdExpiresAt: isoUtc(payment.holdExpiresAt),
  };
}

/** What the Checkout's line says: "Coaching · Ada Lovelace · Monday, March 15, 2027, 9:00 AM", in the guest's language and zone. */
function lineName(title: string, hostNames: string[], booking: Pick<BookingRow, "startTime" | "guestTimezone" | "guestLanguage">): string {
  const locale = asLocale(booking.guestLanguage);
  const when = sentenceMoment(booking.startTime.getTime(), booking.guestTimezone, locale);
  return `${title} · ${andList(locale, hostNames)} · ${when}`.slice(0, 250);
}

/**
 * Makes the guest's Checkout Session for a booking just held and keeps it on the payment. When
 * Stripe cannot make it, the hold ends at once (the time is free again), the guest's
 * Idempotency-Key is forgotten (a retry books afresh), and the guest hears 503: nothing was booked.
 */
export async function startCheckout(
  db: Db,
  args: { paymentId: string; title: string; hostNames: string[]; manageUrl: string; claim: Claim; now: number },
): Promise<CheckoutView> {
  const config = paymentsOrThrow();
  const [found] = await db.select({ payment: payments, first: bookings }).from(payments).innerJoin(bookings, eq(bookings.id, payments.bookingId)).where(eq(payments.id, args.paymentId));
  if (!found) throw new Error(`payment ${args.paymentId}: not found after its booking's commit`);
  const { payment, first } = found;
  if (payment.checkoutUrl) return checkoutView(payment, first.paymentStatus, args.now);
  let session: { id: string; url: string };
  try {
    session = await createCheckoutSession(config, {
      paymentId: payment.id,
      bookingId: first.id,
      name: lineName(args.title, args.hostNames, first),
      unitAmount: payment.unitAmount,
      quantity: payment.quantity,
      currency: payment.currency,
      email: first.guestEmail,
      locale: asLocale(first.guestLanguage),
      successUrl: `${args.manageUrl}?payment=done`,
      cancelUrl: args.manageUrl,
      expiresAt: Math.max(payment.holdExpiresAt.getTime(), args.now + STRIPE_MIN_SESSION_MS),
    });
  } catch (error) {
    await endHold(db, payment.id, "failed", args.now, (tx) => tx.delete(idempotencyKeys).where(and(eq(idempotencyKeys.scope, args.claim.scope), eq(idempotencyKeys.key, args.claim.key))));
    // Stripe's words are for the operator (they may name the account's key, masked): logged, not answered.
    log.warn({ paymentId: payment.id, err: error instanceof Error ? error.message : String(error) }, "payments: Stripe did not make a Checkout Session; the hold was released");
    throw new AppError("provider_unavailable", "The payment could not be started: the payment provider did not answer. Nothing was booked; please try again.");
  }
  const [kept] = await db
    .update(payments)
    .set({ checkoutSessionId: session.id, checkoutUrl: session.url, updatedAt: new Date(args.now) })
    .where(eq(payments.id, payment.id))
    .returning();
  return checkoutView(kept!, first.paymentStatus, args.now);
}

/** The Checkout of a booking's payment as it stands (a replayed answer, the guest's pages); undefined for a free booking. */
export async function checkoutOf(db: Db, booking: Pick<BookingRow, "paymentId" | "paymentStatus">, now: number): Promise<(CheckoutView & { payment: PaymentRow }) | undefined> {
  if (!booking.paymentId) return undefined;
  const [payment] = await db.select().from(payments).where(eq(payments.id, booking.paymentId));
  return payment && { ...checkoutView(payment, booking.paymentStatus, now), payment };
}

/** The bookings a payment pays for (one, a seat, or a series' occurrences). */
export async function bookingIdsOfPayment(db: Db | Tx, paymentId: string): Promise<string[]> {
  const rows = await db.select({ id: bookings.id }).from(bookings).where(eq(bookings.paymentId, paymentId)).orderBy(asc(bookings.startTime), asc(bookings.id));
  return rows.map((r) => r.id);
}

/**
 * Ends an unpaid hold: its bookings still awaiting payment are cancelled by the system (no one
 * was told of them, so no event goes out), the payment is `expired` (or `failed`: its Checkout
 * could not be made), and the Checkout Session is closed at Stripe by a job. Conditional on the
 * payment still being unpaid, under the bookings' locks: a payment confirmed a moment before
 * wins, and of two sweeps (or a sweep and Stripe's own expiry) one ends it. `also` runs in the
 * same transaction. Returns whether this call ended it.
 */
export async function endHold(db: Db, paymentId: string, outcome: "expired" | "failed", now: number, also?: (tx: Tx) => Promise<unknown>): Promise<boolean> {
  const ids = await bookingIdsOfPayment(db, paymentId);
  return writeBookings(db, ids, async (tx) => {
    const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update");
    if (!payment || payment.status !== "unpaid") return false;
    await endHoldUnderLocks(tx, payment, outcome, now);
    await also?.(tx);
    return true;
  });
}

/** endHold's change, inside a transaction that holds the bookings' locks and the payment's row. */
export async function endHoldUnderLocks(tx: Tx, payment: PaymentRow, outcome: "expired" | "failed", now: number): Promise<void> {
  await tx.update(payments).set({ status: outcome, endedAt: new Date(now), updatedAt: new Date(now) }).where(eq(payments.id, payment.id));
  const ended = await tx
    .update(bookings)
    .set({ status: "cancelled", cancelledBy: "system", cancelledAt: new Date(now), sequence: sql`${bookings.sequence} + 1` })
    .where(and(eq(bookings.paymentId, payment.id), eq(bookings.status, "awaiting_payment")))
    .returning({ id: bookings.id });
  for (const { id } of ended) await recordHistory(tx, id, "cancelled", SYSTEM, now, { reason: null, payment: outcome === "expired" ? "not paid in time" : "could not be started" });
  await closeCheckoutLater(tx, payment, now);
}

/** Closes the payment's Checkout Session at Stripe, by a job (retried until Stripe answers). */
export async function closeCheckoutLater(tx: Tx, payment: Pick<PaymentRow, "id" | "checkoutSessionId">, now: number): Promise<void> {
  if (!payment.checkoutSessionId) return;
  await enqueueJobs(tx, [{ kind: CHECKOUT_EXPIRE, dedupeKey: `checkout-expire:${payment.id}`, payload: { paymentId: payment.id } satisfies PaymentJob }], now);
}

/**
 * A hold's booking cancelled by the guest or a host before it was paid: once none of the
 * payment's bookings still waits, the payment has ended unpaid and its Checkout is closed.
 */
export async function afterHoldCancelled(tx: Tx, paymentId: string, now: number): Promise<void> {
  const [waiting] = await tx.select({ id: bookings.id }).from(bookings).where(and(eq(bookings.paymentId, paymentId), eq(bookings.status, "awaiting_payment"))).limit(1);
  if (waiting) return;
  const [payment] = await tx
    .update(payments)
    .set({ status: "expired", endedAt: new Date(now), updatedAt: new Date(now) })
    .where(and(eq(payments.id, paymentId), eq(payments.status, "unpaid")))
    .returning();
  if (payment) await closeCheckoutLater(tx, payment, now);
}

/**
 * The housekeeping sweep (decisions §20): every hold whose time ran out unpaid is ended. Safe
 * with other instances sweeping and with Stripe's events arriving at the same moment (endHold).
 * Returns how many it ended.
 */
export async function expireUnpaidHolds(db: Db, now: number): Promise<number> {
  let ended = 0;
  for (;;) {
    const due = await db
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.status, "unpaid"), lte(payments.holdExpiresAt, new Date(now))))
      .orderBy(asc(payments.holdExpiresAt), asc(payments.id))
      .limit(BATCH);
    for (const { id } of due) if (await endHold(db, id, "expired", now)) ended += 1;
    if (due.length < BATCH) return ended;
  }
}

/** A payment by its id. */
export async function paymentOfId(db: Db, paymentId: string): Promise<PaymentRow | undefined> {
  const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId));
  return payment;
}
