import { boolean, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

// A host. Minimum notice and booking window live here: one row per host, one source of truth,
// like the timezone that every wall-clock time of the host is read in.
export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    /** argon2id; null for a host who came through OIDC and never set a password (decisions §22). */
    passwordHash: text("password_hash"),
    fullName: text("full_name").notNull(),
    username: text("username").notNull(),
    timezone: text("timezone").notNull(),
    avatarUrl: text("avatar_url"),
    /** A few words guests read on the host's public page (at most 280 characters, checked by the API). */
    bio: text("bio"),
    /** The language of the host's own emails (lib/i18n locales; a value this code does not know reads as English). */
    language: text("language").notNull().default("en"),
    emailVerified: boolean("email_verified").notNull().default(false),
    minNoticeHours: integer("min_notice_hours").notNull().default(4),
    maxAdvanceDays: integer("max_advance_days").notNull().default(60),
    /** SHA-256 of the secret in the host's calendar feed URL (null: no feed). */
    feedTokenHash: text("feed_token_hash"),
    /**
     * Every bearer token and dashboard session carries the version it was issued under; raising
     * it (sign-out everywhere, a password change) ends them all at once, stateless as they are.
     */
    sessionVersion: integer("session_version").notNull().default(0),
    /** Public holidays are days off (decisions §21): an ISO 3166-1 alpha-2 country (null: none), its region, the dates worked anyway. */
    holidayCountry: text("holiday_country"),
    holidayRegion: text("holiday_region"),
    holidayWorkingOn: jsonb("holiday_working_on").$type<string[]>().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_email_key").on(t.email),
    uniqueIndex("users_username_key").on(t.username),
    uniqueIndex("users_feed_token_hash_key").on(t.feedTokenHash),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
