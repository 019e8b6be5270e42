import { boolean, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users";

// A host's webhook endpoint. The signing secret (whsec_…) is shown once and kept sealed
// (lib/secret-box.ts). After a rotation the previous secret signs too, until it expires, so a
// receiver can switch secrets without losing a delivery.
export const webhooks = pgTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    /** The event types whose bookings the endpoint hears of; null: all of the host's (team ones included). */
    eventTypeIds: text("event_type_ids").array(),
    secretEncrypted: text("secret_encrypted").notNull(),
    previousSecretEncrypted: text("previous_secret_encrypted"),
    previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true }),
    isActive: boolean("is_active").notNull().default(true),
    /** Why the service turned the endpoint off (it answered 410 Gone); null when the host did. */
    disabledReason: text("disabled_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhooks_user_idx").on(t.userId)],
);

export type WebhookRow = typeof webhooks.$inferSelect;
