import { bigserial, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { bookings } from "./bookings";

/**
 * A booking's story (decisions §16): every change, written in the transaction that makes it, so
 * the history holds exactly what happened. `details` holds what the action needs (a reschedule's
 * from and to, a cancel's reason, a no-show's value). Gone with the booking.
 */
export const bookingHistory = pgTable(
  "booking_history",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    bookingId: text("booking_id")
      .notNull()
      .references(() => bookings.id, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** created, confirmed, rescheduled, cancelled, no_show (and what later issues add). */
    action: text("action").notNull(),
    /** guest, host or system. */
    actor: text("actor").notNull(),
    /** The host who acted (actor host). */
    actorUserId: text("actor_user_id"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index("booking_history_booking_idx").on(t.bookingId, t.id)],
);

export type BookingHistoryRow = typeof bookingHistory.$inferSelect;
