import { sql } from "drizzle-orm";
import { check, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./users";

// A team (decisions §15): a slug for its public pages and the people in it. Team event types
// (event_types.team_id) are booked with its active members as hosts.
export const teams = pgTable(
  "teams",
  {
    id: text("id").primaryKey(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("teams_slug_key").on(t.slug)],
);

export const teamRoles = ["owner", "member"] as const;
export const teamMemberStatuses = ["invited", "active"] as const;

/** A person's place in a team: invited until they accept; only active members host. */
export const teamMembers = pgTable(
  "team_members",
  {
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: teamRoles }).notNull(),
    status: text("status", { enum: teamMemberStatuses }).notNull(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.userId] }),
    index("team_members_user_idx").on(t.userId),
    // The invitations one person has sent and are waiting for an answer (their cap counts them),
    // and the rows to clear when that person's account goes.
    index("team_members_invited_by_idx").on(t.invitedBy),
    check("team_members_role_chk", sql`${t.role} in ('owner', 'member')`),
    check("team_members_status_chk", sql`${t.status} in ('invited', 'active')`),
  ],
);

export type TeamRow = typeof teams.$inferSelect;
export type TeamMemberRow = typeof teamMembers.$inferSelect;
