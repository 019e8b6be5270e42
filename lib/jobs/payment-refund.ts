import "server-only";
import { getConfig } from "@/lib/config";
import { CHECKOUT_EXPIRE, PAYMENT_REFUND } from "@/lib/outbox/kinds";
import { PaymentJob, PaymentRefundJob } from "@/lib/outbox/payloads";
import { createRefund, expireCheckoutSession, StripeErrors } from "@/lib/payments/stripe";
import { recordRefunded, refundToSend } from "@/lib/services/bookings/refunds";
import { paymentOfId } from "@/lib/services/bookings/checkout";
import type { JobHandler } from "./types";

// The calls to Stripe that money depends on (decisions §20), each a job of the outbox: written
// in the transaction that decided it, retried with backoff until Stripe answers, never lost. The
// Idempotency-Key is our row's id, so a retry after a lost answer makes nothing twice.

/** About two weeks of retries with the worker's backoff: a refund outlives any outage of Stripe's, and shows as pending meanwhile. */
const REFUND_ATTEMPTS = 60;

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Gives a decided refund's money back at Stripe and records its answer (booking.refunded). */
export function paymentRefund(): JobHandler {
  return {
    kind: PAYMENT_REFUND,
    maxAttempts: REFUND_ATTEMPTS,
    async run({ db, job, now }) {
      const { refundId } = PaymentRefundJob.parse(job.payload);
      const found = await refundToSend(db, refundId);
      if (!found) return { status: "done" };
      const config = getConfig().payments;
      if (!config) return { status: "retry", error: "payments are not set up (STRIPE_SECRET_KEY): the refund waits until they are" };
      if (!found.payment.paymentIntentId) return { status: "failed", error: `payment ${found.payment.id} has no payment intent to refund` };
      try {
        const refund = await createRefund(config, { refundId, paymentIntentId: found.payment.paymentIntentId, amount: found.refund.amount, bookingId: found.refund.bookingId });
        await recordRefunded(db, found.refund, found.payment, refund.id, now);
        return { status: "done" };
      } catch (error) {
        // Stripe refused for good (the charge was refunded in Stripe's dashboard, say): retrying would change nothing.
        if (error instanceof StripeErrors.StripeInvalidRequestError) return { status: "failed", error: `Stripe refused the refund: ${reasonOf(error)}` };
        return { status: "retry", error: `Stripe did not refund: ${reasonOf(error)}` };
      }
    },
  };
}

/** Closes an ended hold's Checkout Session at Stripe, so no payment can land on it. */
export function checkoutExpire(): JobHandler {
  return {
    kind: CHECKOUT_EXPIRE,
    async run({ db, job }) {
      const { paymentId } = PaymentJob.parse(job.payload);
      const payment = await paymentOfId(db, paymentId);
      if (!payment?.checkoutSessionId || payment.status === "paid") return { status: "done" };
      const config = getConfig().payments;
      if (!config) return { status: "retry", error: "payments are not set up (STRIPE_SECRET_KEY)" };
      try {
        // "complete": the guest paid first; that payment's own event gives it back (payment-events.ts).
        await expireCheckoutSession(config, payment.checkoutSessionId);
        return { status: "done" };
      } catch (error) {
        return { status: "retry", error: `Stripe did not close the Checkout: ${reasonOf(error)}` };
      }
    },
  };
}
