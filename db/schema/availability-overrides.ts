import { boolean, date, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./users";

export type OverrideInterval = { startTime: string; endTime: string };

// A date override replaces the weekly rules for its date: closed, or open with its own hours.
export const availabilityOverrides = pgTable(
  "availability_overrides",
  {
    id: serial("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    date: date("date", { mode: "string" }).notNull(),
    available: boolean("available").notNull(),
    intervals: jsonb("intervals").$type<OverrideInterval[]>().notNull().default([]),
  },
  (t) => [uniqueIndex("availability_overrides_user_date_key").on(t.userId, t.date)],
);

export type AvailabilityOverrideRow = typeof availabilityOverrides.$inferSelect;
