import { check, index, integer, pgTable, serial, smallint, text } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { schedules } from "./schedules";
import { users } from "./users";

// Weekly availability of one schedule: a day may hold several rules (split intervals). Times are
// minutes after local midnight in the schedule's timezone; 1440 is "24:00".
export const availabilityRules = pgTable(
  "availability_rules",
  {
    id: serial("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    scheduleId: text("schedule_id")
      .notNull()
      .references(() => schedules.id, { onDelete: "cascade" }),
    dayOfWeek: smallint("day_of_week").notNull(),
    startMinute: integer("start_minute").notNull(),
    endMinute: integer("end_minute").notNull(),
  },
  (t) => [
    index("availability_rules_schedule_idx").on(t.scheduleId),
    check("availability_rules_day_chk", sql`${t.dayOfWeek} between 0 and 6`),
    check("availability_rules_range_chk", sql`0 <= ${t.startMinute} and ${t.startMinute} < ${t.endMinute} and ${t.endMinute} <= 1440`),
  ],
);

export type AvailabilityRuleRow = typeof availabilityRules.$inferSelect;
