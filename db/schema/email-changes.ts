import { index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./users";

// A pending change of a host's email: the new address takes effect only when the link mailed
// to it is opened (proof that the host reads it). Single-use, an hour long; only the SHA-256 of
// the link's secret is kept. A newer request replaces the host's unused ones.
export const emailChanges = pgTable(
  "email_changes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    newEmail: text("new_email").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("email_changes_token_hash_key").on(t.tokenHash), index("email_changes_user_id_idx").on(t.userId)],
);

export type EmailChangeRow = typeof emailChanges.$inferSelect;
