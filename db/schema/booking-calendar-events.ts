import { pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { bookings } from "./bookings";
import { calendars } from "./calendars";
import { users } from "./users";

// Where a booking was written in the host's calendar: the event this service made, so a
// reschedule moves that one event and a cancel removes it, even after the host has chosen
// another write target. One per host of the booking (a collective booking is in every host's
// calendar). Gone with the calendar (its connection removed) or the booking.
export const bookingCalendarEvents = pgTable(
  "booking_calendar_events",
  {
  bookingId: text("booking_id")
    .notNull()
    .references(() => bookings.id, { onDelete: "cascade" }),
  /** Whose calendar holds it. */
  hostId: text("host_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  calendarId: text("calendar_id")
    .notNull()
    .references(() => calendars.id, { onDelete: "cascade" }),
  /** The provider's id of the event (Google event id, Graph event id, CalDAV object URL). */
  externalEventId: text("external_event_id").notNull(),
  /** The iCalendar UID written with it: how the event is recognised in busy data. */
  uid: text("uid").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.bookingId, t.hostId] })],
);

export type BookingCalendarEventRow = typeof bookingCalendarEvents.$inferSelect;
