import { integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { bookingStatuses } from "./enums";
import { users } from "./users";

// How many bookings a user hosts, per status: the rows of booking_hosts counted by user and
// status, kept exact by statement triggers on booking_hosts (migration 0020), in the writing
// transaction. GET /me/bookings reads its total from here instead of counting a host's whole
// history on every request (lib/services/bookings/list.ts). A row at 0 stays (never deleted), so
// a decrement always finds its row.
export const hostBookingCounts = pgTable(
  "host_booking_counts",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: bookingStatuses }).notNull(),
    n: integer("n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.status] })],
);
