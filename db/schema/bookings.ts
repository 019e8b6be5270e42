import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { bookingPaymentStatuses, bookingStatuses, cancellers } from "./enums";
import { eventTypes } from "./event-types";
import { users } from "./users";

// The buffers are copied onto the booking so that editing the event type later never moves
// what an existing booking blocks. [blocked_start, blocked_end) is what the EXCLUDE constraint
// of booking_hosts (migration 0013) keeps disjoint per host among non-cancelled bookings. host_id
// is the booking's host (a round-robin booking's assigned host, a collective one's first host);
// booking_hosts names every host, and GET /me/bookings lists a booking to each of them.
export const bookings = pgTable(
  "bookings",
  {
    id: text("id").primaryKey(),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    eventTypeId: text("event_type_id")
      .notNull()
      .references(() => eventTypes.id, { onDelete: "restrict" }),
    status: text("status", { enum: bookingStatuses }).notNull(),
    startTime: timestamp("start_time", { withTimezone: true }).notNull(),
    endTime: timestamp("end_time", { withTimezone: true }).notNull(),
    bufferBeforeMinutes: integer("buffer_before_minutes").notNull().default(0),
    bufferAfterMinutes: integer("buffer_after_minutes").notNull().default(0),
    blockedStart: timestamp("blocked_start", { withTimezone: true }).notNull(),
    blockedEnd: timestamp("blocked_end", { withTimezone: true }).notNull(),
    guestName: text("guest_name").notNull(),
    guestEmail: text("guest_email").notNull(),
    guestTimezone: text("guest_timezone").notNull(),
    /** The language the guest's emails and pages are written in (en, de, fr, es, pt; lib/i18n). */
    guestLanguage: text("guest_language").notNull().default("en"),
    location: text("location").notNull().default(""),
    customAnswers: jsonb("custom_answers").$type<Record<string, string>>().notNull().default({}),
    cancelTokenHash: text("cancel_token_hash").notNull(),
    cancellationReason: text("cancellation_reason"),
    cancelledBy: text("cancelled_by", { enum: cancellers }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    previousStartTime: timestamp("previous_start_time", { withTimezone: true }),
    /** The host marked the guest as not having come (decisions §16). */
    noShow: boolean("no_show").notNull().default(false),
    /** iCalendar SEQUENCE of the booking's invitation: +1 on every reschedule and on cancel. */
    sequence: integer("sequence").notNull().default(0),
    /**
     * A seat of a seated start (decisions §19): `<event type id>@<start>`, shared by every guest of
     * that start; null for a booking that holds its time alone. booking_hosts copies it: its
     * exclusion constraint lets only bookings of the same seated start overlap, and seat_counts
     * (migration 0028) keeps the seats taken within the event type's max.
     */
    seatKey: text("seat_key"),
    /** The series a recurring booking belongs to (`ser_…`); null for a single booking. */
    seriesId: text("series_id"),
    /**
     * A paid booking's payment (decisions §20): the Checkout it is paid by (`pay_…`, one for a whole
     * series), what this booking costs of it and where its money stands. Null for a free booking.
     */
    paymentId: text("payment_id"),
    paymentStatus: text("payment_status", { enum: bookingPaymentStatuses }),
    priceAmount: integer("price_amount"),
    priceCurrency: text("price_currency"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("bookings_host_start_idx").on(t.hostId, t.startTime),
    index("bookings_event_type_idx").on(t.eventTypeId),
    // The housekeeping sweep finds requests whose start passed unconfirmed (lib/services/bookings/expire.ts).
    index("bookings_pending_start_idx").on(t.startTime).where(sql`${t.status} = 'pending'`),
    uniqueIndex("bookings_cancel_token_hash_key").on(t.cancelTokenHash),
    // The same guest cannot take two seats of one start (erased guests have no address: decisions §16).
    uniqueIndex("bookings_seat_guest_key")
      .on(t.seatKey, sql`lower(${t.guestEmail})`)
      .where(sql`${t.seatKey} is not null and ${t.status} <> 'cancelled' and ${t.guestEmail} <> ''`),
    index("bookings_payment_idx").on(t.paymentId).where(sql`${t.paymentId} is not null`),
    index("bookings_series_idx").on(t.seriesId, t.startTime).where(sql`${t.seriesId} is not null`),
    // The guest-email booking limit counts an email's bookings of the last hour.
    index("bookings_guest_email_created_idx").on(sql`lower(${t.guestEmail})`, t.createdAt),
    check("bookings_times_chk", sql`${t.startTime} < ${t.endTime}`),
    // No booking is longer than the longest event type (MAX_DURATION_MINUTES): the bookings list
    // counts what has not ended among bookings started less than that ago (lib/services/bookings/list.ts).
    check("bookings_length_chk", sql`${t.endTime} <= ${t.startTime} + interval '720 minutes'`),
    check(
      "bookings_blocked_chk",
      sql`${t.blockedStart} <= ${t.startTime} and ${t.endTime} <= ${t.blockedEnd}`,
    ),
  ],
);

export type BookingRow = typeof bookings.$inferSelect;
