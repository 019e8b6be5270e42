import { index, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { calendars } from "./calendars";
import { users } from "./users";

// Last known busy time of an external calendar: slots use it, and keep using it while the
// provider is down.
export const busyIntervals = pgTable(
  "busy_intervals",
  {
    id: serial("id").primaryKey(),
    calendarId: text("calendar_id")
      .notNull()
      .references(() => calendars.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    startTime: timestamp("start_time", { withTimezone: true }).notNull(),
    endTime: timestamp("end_time", { withTimezone: true }).notNull(),
    /**
     * The provider's event behind it (Google event id, Graph event id, CalDAV object href), so an
     * incremental sync replaces just the events that changed; null for free/busy answers.
     */
    eventKey: text("event_key"),
  },
  (t) => [
    index("busy_intervals_user_time_idx").on(t.userId, t.startTime),
    // Read by where an interval ends (lib/services/host-time/load.ts): past busy time is never visited.
    index("busy_intervals_user_end_idx").on(t.userId, t.endTime),
    index("busy_intervals_calendar_event_idx").on(t.calendarId, t.eventKey),
  ],
);
