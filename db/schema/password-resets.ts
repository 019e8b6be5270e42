import { index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./users";

// A password reset link sent by email: single-use, an hour long. Only the SHA-256 of the link's
// secret is kept, so the table cannot be read back into working links. A newer request deletes
// the user's unused ones (lib/services/accounts/password-reset.ts): only the latest link works.
export const passwordResets = pgTable(
  "password_resets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("password_resets_token_hash_key").on(t.tokenHash), index("password_resets_user_id_idx").on(t.userId)],
);

export type PasswordResetRow = typeof passwordResets.$inferSelect;
