import "server-only";
import Stripe from "stripe";
import type { PaymentsConfig } from "@/lib/config";

// The installation's Stripe account through the official library (decisions §20), pointed at
// STRIPE_API_URL: Stripe's own address in production, a local server speaking its wire format in
// tests (tests/support/fake-stripe.ts). Every call that creates something carries an
// Idempotency-Key made from our own row's id, so a call retried after a lost answer, a crash or a
// second instance finds what the first one made instead of making it again.

const clients = new Map<string, Stripe>();

function clientOf(config: PaymentsConfig): Stripe {
  const key = `${config.apiUrl} ${config.secretKey}`;
  let client = clients.get(key);
  if (!client) {
    const url = new URL(config.apiUrl);
    const protocol = url.protocol === "http:" ? "http" : "https";
    client = new Stripe(config.secretKey, {
      host: url.hostname,
      port: url.port || (protocol === "http" ? 80 : 443),
      protocol,
      // Our outbox retries with backoff, under the same Idempotency-Key; the library need not.
      maxNetworkRetries: 0,
      timeout: 10_000,
      telemetry: false,
    });
    clients.set(key, client);
  }
  return client;
}

/** What a Checkout Session is made for: one booking, a seat, or a series (quantity occurrences). */
export type CheckoutRequest = {
  paymentId: string;
  bookingId: string;
  /** The line the guest pays for: "Coaching with Ada Lovelace, Monday, March 15, 9:00 AM". */
  name: string;
  unitAmount: number;
  quantity: number;
  currency: string;
  email: string;
  /** The guest's language (Stripe's Checkout speaks all five of ours). */
  locale: "en" | "de" | "fr" | "es" | "pt";
  successUrl: string;
  cancelUrl: string;
  /** When Stripe closes the session by itself (at least 30 minutes away; the sweep closes it sooner). */
  expiresAt: number;
};

export async function createCheckoutSession(config: PaymentsConfig, req: CheckoutRequest): Promise<{ id: string; url: string }> {
  const session = await clientOf(config).checkout.sessions.create(
    {
      mode: "payment",
      line_items: [{ quantity: req.quantity, price_data: { currency: req.currency, unit_amount: req.unitAmount, product_data: { name: req.name } } }],
      customer_email: req.email,
      client_reference_id: req.paymentId,
      metadata: { paymentId: req.paymentId, bookingId: req.bookingId },
      payment_intent_data: { metadata: { paymentId: req.paymentId, bookingId: req.bookingId } },
      locale: req.locale,
      success_url: req.successUrl,
      cancel_url: req.cancelUrl,
      expires_at: Math.ceil(req.expiresAt / 1000),
    },
    { idempotencyKey: `checkout-${req.paymentId}` },
  );
  if (!session.url) throw new Error(`Stripe made Checkout Session ${session.id} without a URL`);
  return { id: session.id, url: session.url };
}

/**
 * Closes a Checkout Session so that no payment can land on it any more. Returns the session's
 * status after: `expired`, or `complete` when the guest paid first (the payment's own event then
 * brings the money back: a late payment).
 */
export async function expireCheckoutSession(config: PaymentsConfig, sessionId: string): Promise<string> {
  const stripe = clientOf(config);
  try {
    const session = await stripe.checkout.sessions.expire(sessionId, {}, { idempotencyKey: `expire-${sessionId}` });
    return session.status ?? "expired";
  } catch (error) {
    // Already closed (by Stripe at its expires_at, by an earlier try, or by the payment): read what it is.
    if (error instanceof Stripe.errors.StripeInvalidRequestError) {
      const session = await stripe.checkout.sessions.retrieve(sessionId);
      if (session.status !== "open") return session.status ?? "expired";
    }
    throw error;
  }
}

/** Gives `amount` of a payment back; `refundId` (our row) is the Idempotency-Key: asked twice, Stripe refunds once. */
export async function createRefund(config: PaymentsConfig, args: { refundId: string; paymentIntentId: string; amount: number; bookingId: string | null }): Promise<{ id: string; status: string }> {
  const refund = await clientOf(config).refunds.create(
    {
      payment_intent: args.paymentIntentId,
      amount: args.amount,
      reason: "requested_by_customer",
      metadata: { refundId: args.refundId, ...(args.bookingId ? { bookingId: args.bookingId } : {}) },
    },
    { idempotencyKey: `refund-${args.refundId}` },
  );
  return { id: refund.id, status: refund.status ?? "pending" };
}

/**
 * The event Stripe signed, or undefined when the signature is not the endpoint secret's, or its
 * timestamp is more than five minutes old (the library's check: a replayed request is refused).
 */
export function verifiedEvent(config: PaymentsConfig, rawBody: string, signature: string | null): Stripe.Event | undefined {
  if (!signature) return undefined;
  try {
    return clientOf(config).webhooks.constructEvent(rawBody, signature, config.webhookSecret);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) return undefined;
    throw error;
  }
}

/** The doctor's questions: do the keys open the account, and does Stripe know our webhook endpoint? */
export async function checkAccount(config: PaymentsConfig, webhookUrl: string): Promise<{ endpoint: "listening" | "missing" | "disabled" | "unknown" }> {
  const stripe = clientOf(config);
  await stripe.balance.retrieve();
  try {
    const endpoints = await stripe.webhookEndpoints.list({ limit: 100 });
    const ours = endpoints.data.find((e) => e.url === webhookUrl);
    if (!ours) return { endpoint: "missing" };
    return { endpoint: ours.status === "enabled" ? "listening" : "disabled" };
  } catch (error) {
    // A restricted key may not read webhook endpoints: the keys work, the endpoint is not known.
    if (error instanceof Stripe.errors.StripePermissionError) return { endpoint: "unknown" };
    throw error;
  }
}

export type StripeEvent = Stripe.Event;
export type StripeCheckoutSession = Stripe.Checkout.Session;
export const StripeErrors = Stripe.errors;
