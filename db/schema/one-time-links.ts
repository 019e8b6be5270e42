import { index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { bookings } from "./bookings";
import { eventTypes } from "./event-types";

// A secret link that books its event type once (decisions §21), also when the event type is
// switched off for the public. Only the SHA-256 of the token is kept (256 random bits). A link
// used, expired or deleted stays as a row, so its page can say which in plain words (410) rather
// than "not found"; `usedAt` is set in the booking's own transaction, so two guests racing on one
// link get one booking and one 410.
export const oneTimeLinks = pgTable(
  "one_time_links",
  {
    id: text("id").primaryKey(),
    eventTypeId: text("event_type_id")
      .notNull()
      .references(() => eventTypes.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    bookingId: text("booking_id").references(() => bookings.id, { onDelete: "set null" }),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("one_time_links_token_hash_key").on(t.tokenHash), index("one_time_links_event_type_idx").on(t.eventTypeId, t.createdAt)],
);

export type OneTimeLinkRow = typeof oneTimeLinks.$inferSelect;
