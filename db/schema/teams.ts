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
    /** A few words guests read on the team's public page (at most 280 characters, checked by the API). */
    bio: text("bio"),
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
    /** When an invitation stops being answerable (null once accepted): past it, the row is as if absent. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
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

/**
 * An invitation sent to an email address (lib/services/teams/invite-by-email.ts), whether or not
 * an account uses it: the owners see the address, never whose it is. An account with that
 * address answers it from its dashboard; a new one registers through the mailed link, whose
 * secret is kept only as its SHA-256 (single-use: registering deletes the row).
 */
export const teamEmailInvitations = pgTable(
  "team_email_invitations",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    /** Lower-cased, as accounts' addresses are. */
    email: text("email").notNull(),
    role: text("role", { enum: teamRoles }).notNull(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    tokenHash: text("token_hash").notNull(),
    /** The language of its email (one of lib/i18n's locales). */
    language: text("language").notNull().default("en"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("team_email_invitations_team_email_key").on(t.teamId, t.email),
    uniqueIndex("team_email_invitations_token_hash_key").on(t.tokenHash),
    index("team_email_invitations_email_idx").on(t.email),
    index("team_email_invitations_invited_by_idx").on(t.invitedBy),
    check("team_email_invitations_role_chk", sql`${t.role} in ('owner', 'member')`),
  ],
);

export type TeamRow = typeof teams.$inferSelect;
export type TeamEmailInvitationRow = typeof teamEmailInvitations.$inferSelect;
export type TeamMemberRow = typeof teamMembers.$inferSelect;
