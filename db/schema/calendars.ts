import { sql } from "drizzle-orm";
import { boolean, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { calendarConnections } from "./calendar-connections";
import { users } from "./users";

// One calendar inside a connection. At most one write target per host (partial unique index).
export const calendars = pgTable(
  "calendars",
  {
    id: text("id").primaryKey(),
    connectionId: text("connection_id")
      .notNull()
      .references(() => calendarConnections.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    externalId: text("external_id").notNull(),
    name: text("name").notNull(),
    isPrimary: boolean("is_primary").notNull().default(false),
    checkConflicts: boolean("check_conflicts").notNull().default(true),
    writeTarget: boolean("write_target").notNull().default(false),
    /** The account can only read it (a subscribed or shared calendar): never a write target. */
    readOnly: boolean("read_only").notNull().default(false),
    /**
     * Where the incremental sync goes on from (Google nextSyncToken, Graph deltaLink, CalDAV
     * sync-token or the ETags seen), as the provider client wrote it; null means the next sync
     * of this calendar is a full one.
     */
    syncState: text("sync_state"),
    /** The end of the span whose busy time is stored; a later span needs a full read. */
    syncedTo: timestamp("synced_to", { withTimezone: true }),
  },
  (t) => [
    index("calendars_user_idx").on(t.userId),
    uniqueIndex("calendars_connection_external_key").on(t.connectionId, t.externalId),
    uniqueIndex("calendars_one_write_target_per_user").on(t.userId).where(sql`write_target`),
  ],
);

export type CalendarRow = typeof calendars.$inferSelect;
