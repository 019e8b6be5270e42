import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// The OAuth states that have been used at the callback: a state connects a calendar once. The
// state itself is sealed and carries everything else (lib/services/calendars/oauth.ts); a row
// only needs to outlive the state's own expiry, after which the state is refused anyway.
export const oauthStateUses = pgTable(
  "oauth_state_uses",
  {
    /** The state's random id (its `jti`). */
    id: text("id").primaryKey(),
    /** When the state stops being valid; rows past it can be deleted. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("oauth_state_uses_expires_at_idx").on(t.expiresAt)],
);
