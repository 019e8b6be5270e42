import { index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { bookings } from "./bookings";
import { users } from "./users";
import { callAgents, callStatuses } from "./enums";

export { callAgents, callStatuses, providerCallStatuses, type CallAgent, type CallStatus } from "./enums";

// One outbound call placed by an agent of the outbound-calling service to a booking's guest.
export const calls = pgTable(
  "calls",
  {
    id: text("id").primaryKey(),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    bookingId: text("booking_id")
      .notNull()
      .references(() => bookings.id, { onDelete: "cascade" }),
    agent: text("agent", { enum: callAgents }).notNull(),
    toNumber: text("to_number").notNull(),
    providerCallSid: text("provider_call_sid"),
    status: text("status", { enum: callStatuses }).notNull(),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("calls_host_created_idx").on(t.hostId, t.createdAt),
    index("calls_booking_idx").on(t.bookingId),
    // Status callbacks find their call by the provider's id.
    uniqueIndex("calls_provider_call_sid_key").on(t.providerCallSid),
  ],
);

export type CallRow = typeof calls.$inferSelect;
