import { pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { bookings } from "./bookings";

// The guest's secret of a booking, sealed (lib/secret-box: AES-GCM under ENCRYPTION_KEY, bound to
// its purpose). The booking row keeps only the token's hash, which is what a link is checked
// against; this sealed copy is what lets the service write the guest's links into later emails
// (a reschedule, a cancellation) without ever storing the token readable. Written in the
// booking's own statement; gone with the booking.
export const bookingGuestTokens = pgTable("booking_guest_tokens", {
  bookingId: text("booking_id")
    .primaryKey()
    .references(() => bookings.id, { onDelete: "cascade" }),
  sealedToken: text("sealed_token").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type BookingGuestTokenRow = typeof bookingGuestTokens.$inferSelect;
