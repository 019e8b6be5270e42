import { boolean, date, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { schedules } from "./schedules";
import { users } from "./users";

export type OverrideInterval = { startTime: string; endTime: string };

// A date override replaces its schedule's weekly rules for its date: closed, or open with its own hours.
export const availabilityOverrides = pgTable(
  "availability_overrides",
  {
    id: serial("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    scheduleId: text("schedule_id")
      .notNull()
      .references(() => schedules.id, { onDelete: "cascade" }),
    date: date("date", { mode: "string" }).notNull(),
    available: boolean("available").notNull(),
    intervals: jsonb("intervals").$type<OverrideInterval[]>().notNull().default([]),
  },
  (t) => [uniqueIndex("availability_overrides_schedule_date_key").on(t.scheduleId, t.date)],
);

export type AvailabilityOverrideRow = typeof availabilityOverrides.$inferSelect;
