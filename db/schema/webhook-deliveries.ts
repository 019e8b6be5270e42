import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { webhooks } from "./webhooks";

// One row per delivery attempt of one event to one webhook. event_id is the message's
// webhook-id: the same on every attempt, so a receiver can drop repeats.
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    payload: jsonb("payload").notNull(),
    attempt: integer("attempt").notNull(),
    status: text("status", { enum: ["succeeded", "failed"] }).notNull(),
    responseStatus: integer("response_status"),
    error: text("error"),
    durationMs: integer("duration_ms"),
    /** When the next attempt is due; null when this was the last one (delivered, or given up). */
    nextRetryAt: timestamp("next_retry_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhook_deliveries_webhook_idx").on(t.webhookId, t.createdAt)],
);

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
