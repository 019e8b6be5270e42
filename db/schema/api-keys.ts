import { index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./users";

// A host's API key (decisions §18): `bk_` and 32 random bytes, shown once when made. Only its
// SHA-256 is kept (a key is 256 random bits: a fast hash cannot be searched back), so the table
// cannot be read back into working keys; `prefix`, its first 8 characters, lets people tell keys
// apart. Revoking deletes the row: every instance reads the row on each request, so a revoked
// key answers 401 at once everywhere.
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    scopes: text("scopes").array().notNull(),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Null: the key never expires. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** Written at most once a minute per key (lib/services/api-keys/authenticate.ts). */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("api_keys_key_hash_key").on(t.keyHash), index("api_keys_user_id_idx").on(t.userId, t.createdAt)],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
