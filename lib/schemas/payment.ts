import { z } from "zod";
import { bookingStatuses, paymentStatuses, refundReasons } from "@/db/schema/enums";
import { DateString, QueryInt, Timestamp } from "./common";

// GET /me/payments (decisions §20): what the host's guests paid, and what went back, with the
// totals per currency of the range asked for. Money is in the currency's minor units.

export const PaymentListQuery = z
  .strictObject({
    from: DateString.optional().meta({ description: "Payments made (booked) on or after this date, in the host's timezone" }),
    to: DateString.optional().meta({ description: "Payments made (booked) on or before this date, in the host's timezone" }),
    status: z.enum(paymentStatuses).optional().meta({ description: "Only the payments with this status" }),
    page: QueryInt(1, 100_000, 1),
    limit: QueryInt(1, 100, 20),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.from > q.to) ctx.addIssue({ code: "custom", path: ["to"], message: "Must not be before from" });
  });

export const PaymentRefund = z
  .object({
    id: z.string(),
    amount: z.number().int().meta({ description: "Given back, in minor units" }),
    reason: z.enum(refundReasons),
    status: z.enum(["pending", "succeeded"]).meta({ description: "pending: asked of Stripe, not yet confirmed; succeeded: given back" }),
    createdAt: Timestamp,
    refundedAt: Timestamp.nullable(),
  })
  .meta({ id: "PaymentRefund" });

export const Payment = z
  .object({
    id: z.string(),
    status: z.enum(paymentStatuses).meta({ description: "unpaid: the hold is running; paid; expired: not paid in time; failed: the payment failed" }),
    amount: z.number().int().meta({ description: "The Checkout's total in minor units (the price times the occurrences of a series)" }),
    currency: z.string().meta({ description: "ISO 4217, lower case", example: "eur" }),
    quantity: z.number().int().meta({ description: "How many bookings the payment covers (a series' occurrences), else 1" }),
    createdAt: Timestamp,
    paidAt: Timestamp.nullable(),
    holdExpiresAt: Timestamp.meta({ description: "Until when the time was held for the payment" }),
    eventType: z.object({ id: z.string(), title: z.string() }),
    booking: z
      .object({ id: z.string(), guestName: z.string(), guestEmail: z.string(), startTime: Timestamp, status: z.enum(bookingStatuses) })
      .meta({ description: "The booking the guest paid for (a series' first occurrence)" }),
    refunds: z.array(PaymentRefund),
  })
  .meta({ id: "Payment" });

export const PaymentTotal = z
  .object({
    currency: z.string(),
    paid: z.number().int().meta({ description: "Paid by guests, in minor units" }),
    refunded: z.number().int().meta({ description: "Given back (refunds Stripe confirmed), in minor units" }),
    net: z.number().int().meta({ description: "paid less refunded" }),
    count: z.number().int().meta({ description: "How many payments were paid" }),
  })
  .meta({ id: "PaymentTotal" });

export const PaymentList = z
  .object({
    configured: z.boolean().meta({ description: "Whether payments are set up on this service (its operator's Stripe keys): else no price can be set" }),
    currencyDefault: z.string().nullable().meta({ description: "The currency of the host's most recently priced event type, for a new price; null when none has one" }),
    totals: z.array(PaymentTotal).meta({ description: "Per currency, over the range (from, to) whatever the status filter and page" }),
    data: z.array(Payment),
    pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int() }),
  })
  .meta({ id: "PaymentList" });
