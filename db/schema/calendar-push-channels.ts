import { index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { calendarConnections } from "./calendar-connections";
import { calendars } from "./calendars";

// A push subscription at the provider for one calendar (decisions §17): a Google watch channel
// or a Graph subscription. The provider calls POST /api/v1/hooks/provider_a|provider_b with the
// channel's id and its secret (Google's channel token, Graph's clientState); only the secret's
// SHA-256 is kept, so a read of this table cannot forge a notification. Renewed before
// `expiresAt`, stopped at the provider when the connection goes.
export const calendarPushChannels = pgTable(
  "calendar_push_channels",
  {
    id: text("id").primaryKey(),
    connectionId: text("connection_id")
      .notNull()
      .references(() => calendarConnections.id, { onDelete: "cascade" }),
    calendarId: text("calendar_id")
      .notNull()
      .references(() => calendars.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["provider_a", "provider_b"] }).notNull(),
    /** Google: the channel id we chose; Graph: the subscription id it gave. */
    channelId: text("channel_id").notNull(),
    /** Google's resourceId (needed to stop the channel); null for Graph. */
    resourceId: text("resource_id"),
    secretHash: text("secret_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("calendar_push_channels_channel_key").on(t.provider, t.channelId),
    index("calendar_push_channels_connection_idx").on(t.connectionId),
    index("calendar_push_channels_expires_idx").on(t.expiresAt),
  ],
);

export type CalendarPushChannelRow = typeof calendarPushChannels.$inferSelect;
