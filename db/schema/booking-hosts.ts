import { sql } from "drizzle-orm";
import { boolean, index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { bookings } from "./bookings";
import { bookingStatuses } from "./enums";
import { users } from "./users";

// Who hosts a booking: one row for a personal or round-robin booking, one per host for a
// collective one (decisions §15). The exclusion constraint on this table (migration 0013) is what
// makes a double booking impossible per host, whatever mix of personal and team bookings race:
// [blocked_start, blocked_end) of a user's rows that are not cancelled never overlap.
// The booking's own row (bookings.host_id) and its times and status are kept here by triggers
// on bookings (migrations 0013, 0018, 0020), so no writer can forget them; a new booking's own
// statement writes all its hosts' rows at once (lib/services/bookings/commit.ts).
// Statement triggers on this table keep host_booking_counts (migration 0020) in step.
export const bookingHosts = pgTable(
  "booking_hosts",
  {
    bookingId: text("booking_id")
      .notNull()
      .references(() => bookings.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    blockedStart: timestamp("blocked_start", { withTimezone: true }).notNull(),
    blockedEnd: timestamp("blocked_end", { withTimezone: true }).notNull(),
    cancelled: boolean("cancelled").notNull().default(false),
    /** The booking's start, kept here by the same triggers: a host's list is read in this order from the index alone. */
    startTime: timestamp("start_time", { withTimezone: true }).notNull(),
    /** The booking's status, kept here by the same triggers: what host_booking_counts counts. */
    status: text("status", { enum: bookingStatuses }).notNull(),
    /**
     * The booking's updatedAt, kept here by the same triggers: a host's changes are walked in this
     * order from the index alone (GET /me/bookings?updatedSince=…, lib/services/bookings/changes.ts).
     */
    /** The booking's seat key (bookings.seat_key): rows of one seated start may overlap each other (migration 0028). */
    seatKey: text("seat_key"),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.bookingId, t.userId] }),
    // What blocks a host's time is read by where it ends (lib/services/host-time/load.ts).
    index("booking_hosts_user_blocked_end_idx").on(t.userId, t.blockedEnd).where(sql`not ${t.cancelled}`),
    // A host's bookings list (GET /me/bookings) walks this index in its order, however long their
    // past: page 500 skips entries of the index, not rows of bookings (lib/services/bookings/list.ts).
    index("booking_hosts_user_start_idx").on(t.userId, t.startTime, t.bookingId),
    // A host's changes since a time (GET /me/bookings?updatedSince=…) walk this index in its order.
    index("booking_hosts_user_changed_idx").on(t.userId, t.changedAt, t.bookingId),
  ],
);

export type BookingHostRow = typeof bookingHosts.$inferSelect;
