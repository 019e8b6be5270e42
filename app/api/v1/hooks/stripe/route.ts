// POST /api/v1/hooks/stripe – Stripe's events about Checkouts (decisions §20)
import { AppError, validationError } from "@/lib/errors";
import { CALENDAR_HOOKS_LIMIT, endpoint, route } from "@/lib/http/route";
import { verifiedEvent } from "@/lib/payments/stripe";
import { getConfig } from "@/lib/config";
import { applyStripeEvent } from "@/lib/services/bookings/payment-events";

/** Stripe's events are a few KB; anything much larger is not one. */
const MAX_EVENT_BYTES = 256 * 1024;

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/hooks/stripe", {
  POST: route(
    {
      auth: "none",
      summary:
        "Stripe's webhook (set it up at Stripe for checkout.session.completed, checkout.session.async_payment_succeeded, checkout.session.async_payment_failed and checkout.session.expired). " +
        "The Stripe-Signature header is checked with the endpoint's secret (STRIPE_WEBHOOK_SECRET) and must be at most five minutes old. Each event is applied once: " +
        "a paid Checkout confirms its booking (pending with approval) and only then are the emails, calendar writes and booking.paid sent; one paid after its hold ended is refunded at once",
      tags: ["Payments"],
      ipLimit: CALENDAR_HOOKS_LIMIT,
      responses: { 200: { description: "Received: {received: true, outcome: applied | duplicate | ignored}" } },
      errors: [
        { status: 400, description: "The Stripe-Signature header is missing, not the endpoint secret's, or more than five minutes old (validation_error)" },
        { status: 404, description: "Payments are not set up on this service (not_found)" },
      ],
    },
    async ({ req, db }) => {
      const config = getConfig().payments;
      // Not set up, the endpoint is not there: nothing here expects Stripe's events.
      if (!config) throw new AppError("not_found", "Payments are not set up on this service (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET)");
      const raw = await req.text();
      if (Buffer.byteLength(raw) > MAX_EVENT_BYTES) throw new AppError("payload_too_large", "A Stripe event is at most 256 KB");
      const event = verifiedEvent(config, raw, req.headers.get("stripe-signature"));
      if (!event) {
        throw validationError(
          [{ path: "stripe-signature", message: "Missing, not signed with this endpoint's secret, or more than five minutes old" }],
          "The Stripe signature does not verify",
        );
      }
      const outcome = await applyStripeEvent(db, event, Date.now());
      return Response.json({ received: true, outcome });
    },
  ),
});
