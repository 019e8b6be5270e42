import "server-only";
import { checkAccount, StripeErrors } from "@/lib/payments/stripe";
import { errorText, type Check } from "./types";

// Paid sessions (decisions §20): the installation's Stripe account. Not set up is a choice, not a
// fault (free event types work); set up, the keys must open the account and Stripe must know the
// webhook endpoint, or guests pay and their bookings are never confirmed.

/** The events the app applies (lib/services/bookings/payment-events.ts), as the endpoint must send them. */
export const STRIPE_EVENTS = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
] as const;

export const payments: Check = {
  name: "payments",
  timeoutMs: 15_000,
  async run({ config }) {
    if (!config.payments) {
      return { status: "ok", finding: "off: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are not set, so hosts cannot set a price (optional; docs/payments.md)" };
    }
    const webhookUrl = `${config.appUrl}/api/v1/hooks/stripe`;
    const endpointFix = `add the webhook endpoint ${webhookUrl} at Stripe (Developers → Webhooks; events: ${STRIPE_EVENTS.join(", ")}) and set STRIPE_WEBHOOK_SECRET to its signing secret`;
    let account: Awaited<ReturnType<typeof checkAccount>>;
    try {
      account = await checkAccount(config.payments, webhookUrl);
    } catch (error) {
      if (error instanceof StripeErrors.StripeAuthenticationError) {
        return { status: "fail", finding: "Stripe refused STRIPE_SECRET_KEY: guests cannot pay, so nobody can book a paid event type", fix: "set STRIPE_SECRET_KEY to a secret key of the account (Stripe Dashboard → Developers → API keys)" };
      }
      if (error instanceof StripeErrors.StripePermissionError) {
        return { status: "fail", finding: "STRIPE_SECRET_KEY may not read the account: a restricted key without the permissions Checkout needs", fix: "use a secret key, or a restricted key with write access to Checkout Sessions and Refunds" };
      }
      if (error instanceof StripeErrors.StripeConnectionError) {
        return { status: "fail", finding: `Stripe could not be reached at ${config.payments.apiUrl}: ${errorText(error)}`, fix: "allow outbound HTTPS to api.stripe.com (or unset STRIPE_API_URL)" };
      }
      return { status: "fail", finding: `Stripe answered an error: ${errorText(error)}` };
    }
    const mode = config.payments.secretKey.includes("_live_") ? "live" : "test";
    switch (account.endpoint) {
      case "listening":
        return { status: "ok", finding: `on (${mode} mode): the keys open the account and Stripe sends events to ${webhookUrl}` };
      case "missing":
        return { status: "warn", finding: `on (${mode} mode), but Stripe has no webhook endpoint at ${webhookUrl}: paid bookings are never confirmed`, fix: endpointFix };
      case "disabled":
        return { status: "warn", finding: `on (${mode} mode), but the webhook endpoint ${webhookUrl} is disabled at Stripe: paid bookings are never confirmed`, fix: "enable the endpoint at Stripe (Developers → Webhooks)" };
      case "unknown":
        return { status: "ok", finding: `on (${mode} mode): the keys open the account; the key may not read webhook endpoints, so check at Stripe that ${webhookUrl} is one` };
    }
  },
};
