import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { bookings, paymentRefunds, payments, type BookingRow, type PaymentRefundRow, type PaymentRow, type RefundReason } from "@/db/schema";
import { newId } from "@/lib/ids";
import { enqueueBookingEvent } from "@/lib/outbox/booking-events";
import { enqueueJobs } from "@/lib/outbox/enqueue";
import { PAYMENT_REFUND } from "@/lib/outbox/kinds";
import type { PaymentRefundJob } from "@/lib/outbox/payloads";
import { recordHistory, SYSTEM, type Actor } from "./history";
import { loadPeopleOf, peopleView } from "./people";

// Money going back (decisions §20). A refund is decided in the transaction of the change that
// calls for it (a cancel, a decline, a payment landing after its hold ended): its row, the
// booking's payment status `refunded`, the history entry and the job that asks Stripe, all or
// nothing. The job (lib/jobs/payment-refund.ts) retries until Stripe answers, with the refund's
// id as the Idempotency-Key, so the money goes back exactly once however often it runs; Stripe's
// answer is recorded with booking.refunded for the host's endpoints.

const HOUR = 3_600_000;

/** A paid booking being cancelled: what its payment allows, read before the cancel. */
export type PaidTerms = Pick<PaymentRow, "id" | "refundableUntilHours" | "currency">;

/** The paid booking's terms, when it is paid (else undefined: nothing to give back). */
export async function paidTermsOf(tx: Tx, booking: Pick<BookingRow, "id" | "paymentId">): Promise<{ status: BookingRow["status"]; paymentStatus: BookingRow["paymentStatus"]; terms: PaidTerms } | undefined> {
  if (!booking.paymentId) return undefined;
  const [row] = await tx
    .select({ status: bookings.status, paymentStatus: bookings.paymentStatus, id: payments.id, refundableUntilHours: payments.refundableUntilHours, currency: payments.currency })
    .from(bookings)
    .innerJoin(payments, eq(payments.id, bookings.paymentId))
    .where(eq(bookings.id, booking.id));
  return row && { status: row.status, paymentStatus: row.paymentStatus, terms: { id: row.id, refundableUntilHours: row.refundableUntilHours, currency: row.currency } };
}

/** Until when a guest's own cancel is refunded: the refund window's end before the start (epoch ms). */
export function refundableUntil(startTime: Date, refundableUntilHours: number): number {
  return startTime.getTime() - refundableUntilHours * HOUR;
}

/**
 * Why a paid booking's cancel gives its money back, or null when it does not (decisions §20): a
 * host's cancel or decline, and the system's (a paid request never answered), always; the
 * guest's own until `refundableUntilHours` before the start.
 */
export function refundReasonOf(by: Actor, declined: boolean, startTime: Date, refundableUntilHours: number, now: number): RefundReason | null {
  if (by.actor === "system") return "expired_request";
  if (by.actor === "host") return declined ? "declined" : "host_cancelled";
  return now <= refundableUntil(startTime, refundableUntilHours) ? "guest_cancelled" : null;
}

/**
 * Decides a refund of `amount` inside the change's transaction: its row (once per booking: a
 * second decision for the same booking adds nothing), the history entry and the job. Returns the
 * refund's row, or undefined when one was decided before.
 */
export async function decideRefund(
  tx: Tx,
  args: { paymentId: string; bookingId: string; amount: number; currency: string; reason: RefundReason; by: Actor; now: number },
): Promise<PaymentRefundRow | undefined> {
  const [refund] = await tx
    .insert(paymentRefunds)
    .values({ id: newId("rfd"), paymentId: args.paymentId, bookingId: args.bookingId, amount: args.amount, reason: args.reason, createdAt: new Date(args.now) })
    .onConflictDoNothing()
    .returning();
  if (!refund) return undefined;
  await recordHistory(tx, args.bookingId, "refund_requested", args.by, args.now, { refundId: refund.id, amount: args.amount, currency: args.currency, reason: args.reason });
  await enqueueJobs(tx, [{ kind: PAYMENT_REFUND, dedupeKey: `refund:${refund.id}`, payload: { refundId: refund.id } satisfies PaymentRefundJob }], args.now);
  return refund;
}

/** What the refund job sends Stripe: the refund still pending and the payment it comes from (undefined once it went through). */
export async function refundToSend(db: Db, refundId: string): Promise<{ refund: PaymentRefundRow; payment: PaymentRow } | undefined> {
  const [row] = await db.select({ refund: paymentRefunds, payment: payments }).from(paymentRefunds).innerJoin(payments, eq(payments.id, paymentRefunds.paymentId)).where(eq(paymentRefunds.id, refundId));
  if (!row || row.refund.status !== "pending") return undefined;
  return row;
}

/**
 * Records Stripe's answer to a refund: succeeded, with Stripe's id, the booking's history entry
 * and booking.refunded, once (a second answer for the same refund changes nothing).
 */
export async function recordRefunded(db: Db, refund: PaymentRefundRow, payment: PaymentRow, stripeRefundId: string, now: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [done] = await tx
      .update(paymentRefunds)
      .set({ status: "succeeded", stripeRefundId, refundedAt: new Date(now) })
      .where(and(eq(paymentRefunds.id, refund.id), eq(paymentRefunds.status, "pending")))
      .returning();
    if (!done || !done.bookingId) return;
    const [booking] = await tx.select().from(bookings).where(eq(bookings.id, done.bookingId));
    if (!booking) return;
    await recordHistory(tx, booking.id, "refunded", SYSTEM, now, { refundId: done.id, amount: done.amount, currency: payment.currency, stripeRefundId });
    const people = await loadPeopleOf(tx, booking.id);
    const { hosts, team } = peopleView(people);
    await enqueueBookingEvent(tx, "booking.refunded", booking, { hostIds: people.hosts.map((h) => h.userId) }, now, {
      bookingId: booking.id,
      refundId: done.id,
      amount: done.amount,
      currency: payment.currency,
      reason: done.reason,
      hosts,
      team,
    });
  });
}
