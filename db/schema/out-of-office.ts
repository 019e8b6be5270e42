import { sql } from "drizzle-orm";
import { check, date, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users";

// A host's time off (decisions §21): whole days, both ends inclusive, read in the host's zone.
// No slot of any event type the host hosts falls on them; a round robin passes over the host.
// `redirectUserId` names a colleague whose page the host's pages point guests to; deleting that
// account leaves the time off without a colleague.
export const outOfOffice = pgTable(
  "out_of_office",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    startDate: date("start_date").notNull(),
    endDate: date("end_date").notNull(),
    note: text("note").notNull().default(""),
    redirectUserId: text("redirect_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("out_of_office_user_end_idx").on(t.userId, t.endDate),
    check("out_of_office_dates_chk", sql`${t.endDate} >= ${t.startDate}`),
  ],
);

export type OutOfOfficeRow = typeof outOfOffice.$inferSelect;
