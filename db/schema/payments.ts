import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { bookings } from "./bookings";
import { paymentStatuses, refundReasons } from "./enums";
import { eventTypes } from "./event-types";
import { users } from "./users";

// A guest's payment for a paid booking (decisions §20): one Stripe Checkout Session, for one
// booking, a seat, or a whole series (`quantity` occurrences at `unitAmount` each). Money is in
// minor units of `currency` everywhere. While `unpaid`, its bookings hold their time until
// `holdExpiresAt`; the housekeeping sweep then releases them and expires the session at Stripe.
// The terms are copied from the event type when booked: a price changed later changes nothing
// for a booking already made.
export const payments = pgTable(
  "payments",
  {
    id: text("id").primaryKey(),
    /** The booking whose answer carries the Checkout (a series' first occurrence). */
    bookingId: text("booking_id").notNull(),
    eventTypeId: text("event_type_id")
      .notNull()
      .references(() => eventTypes.id, { onDelete: "cascade" }),
    /** The booking's host when it was made (a team booking's first host): whose payments list shows it. */
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    seriesId: text("series_id"),
    quantity: integer("quantity").notNull().default(1),
    unitAmount: integer("unit_amount").notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    refundableUntilHours: integer("refundable_until_hours").notNull(),
    status: text("status", { enum: paymentStatuses }).notNull().default("unpaid"),
    holdExpiresAt: timestamp("hold_expires_at", { withTimezone: true }).notNull(),
    checkoutSessionId: text("checkout_session_id"),
    checkoutUrl: text("checkout_url"),
    paymentIntentId: text("payment_intent_id"),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("payments_checkout_session_key").on(t.checkoutSessionId),
    // The sweep's question: which holds ran out unpaid.
    index("payments_hold_idx").on(t.holdExpiresAt).where(sql`${t.status} = 'unpaid'`),
    index("payments_host_created_idx").on(t.hostId, t.createdAt),
    check("payments_amount_chk", sql`${t.unitAmount} >= 1 and ${t.quantity} >= 1 and ${t.amount} = ${t.unitAmount} * ${t.quantity}`),
  ],
);

export type PaymentRow = typeof payments.$inferSelect;

// Money given back (decisions §20): one row per booking refunded (a series' occurrence gives back
// its own share), or the whole payment when it landed after its hold had ended. The row is
// written in the transaction that decides the refund, beside the outbox job that asks Stripe for
// it under the row's id as the Idempotency-Key: retried until Stripe answers, never twice.
export const paymentRefunds = pgTable(
  "payment_refunds",
  {
    id: text("id").primaryKey(),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    bookingId: text("booking_id").references(() => bookings.id, { onDelete: "set null" }),
    amount: integer("amount").notNull(),
    reason: text("reason", { enum: refundReasons }).notNull(),
    status: text("status", { enum: ["pending", "succeeded"] }).notNull().default("pending"),
    stripeRefundId: text("stripe_refund_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("payment_refunds_booking_key").on(t.paymentId, t.bookingId), check("payment_refunds_amount_chk", sql`${t.amount} >= 1`)],
);

export type PaymentRefundRow = typeof paymentRefunds.$inferSelect;

// Stripe's events as they were applied: an event sent twice (Stripe retries until it hears 2xx)
// finds its id here and changes nothing. Written in the transaction that applies the event.
export const stripeEvents = pgTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});
