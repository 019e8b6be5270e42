import { index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./users";

// An external calendar account. Credentials (refresh token or app-specific password) are
// AES-256-GCM ciphertext under ENCRYPTION_KEY; the plaintext is never stored.
export const calendarConnections = pgTable(
  "calendar_connections",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["provider_a", "provider_b", "provider_c"] }).notNull(),
    email: text("email").notNull(),
    status: text("status", { enum: ["connected", "error", "reauth_required"] }).notNull().default("connected"),
    credentialsEncrypted: text("credentials_encrypted").notNull(),
    accessTokenEncrypted: text("access_token_encrypted"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    lastError: text("last_error"),
    lastSyncedAt: timestamp("last_synced_at", { withTimezone: true }),
    /**
     * When the connection's busy data was last known to match the provider (decisions §17): the
     * start of the last sync that succeeded. A check at booking never moves it (it proves only
     * the range it asked about). A booking asks the provider again when this is older than
     * CALENDAR_FRESH_S.
     */
    busyAsOf: timestamp("busy_as_of", { withTimezone: true }),
    /**
     * When the background sync next takes this connection. Claiming it moves this forward in the
     * same statement (a lease), so instances sharing the database never sync one connection twice.
     */
    syncDueAt: timestamp("sync_due_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * Since when the connection has been in `error` or `reauth_required` (null: connected), kept by
     * the trigger calendar_connections_broken_since (migration 0029) whatever code sets the status.
     */
    brokenSince: timestamp("broken_since", { withTimezone: true }),
    /** How many reconnect emails this breakage has sent (at most two: after an hour, after 24 more) and when the last went. */
    brokenNotices: integer("broken_notices").notNull().default(0),
    brokenNotifiedAt: timestamp("broken_notified_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("calendar_connections_user_idx").on(t.userId),
    // Connecting the same account again renews that connection instead of adding a second one.
    uniqueIndex("calendar_connections_account_key").on(t.userId, t.provider, t.email),
    index("calendar_connections_sync_due_idx").on(t.syncDueAt),
  ],
);

export type CalendarConnectionRow = typeof calendarConnections.$inferSelect;
