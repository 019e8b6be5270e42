import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./users";

// A host's named sets of hours (decisions §16): weekly rules and date overrides point at one.
// Every host has exactly one default schedule (the one /me/availability reads and writes, and
// the one team event types and event types without a scheduleId use). The default's zone is the
// host's own timezone (users.timezone, one source of truth, decisions §5), so its `timezone` is
// null; any other schedule keeps the zone its hours are read in.
export const schedules = pgTable(
  "schedules",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    timezone: text("timezone"),
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("schedules_user_idx").on(t.userId),
    uniqueIndex("schedules_one_default_key").on(t.userId).where(sql`${t.isDefault}`),
    check("schedules_default_zone_chk", sql`${t.isDefault} = (${t.timezone} is null)`),
  ],
);

export type ScheduleRow = typeof schedules.$inferSelect;
