import { sql } from "drizzle-orm";
import { boolean, check, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { BookingLimits, CustomQuestion, Price, Recurrence, Reminder, Seats } from "./enums";
import { schedules } from "./schedules";
import { teams } from "./teams";
import { users } from "./users";

export const eventTypes = pgTable(
  "event_types",
  {
    id: text("id").primaryKey(),
    /** The host of a personal event type; null for a team's. */
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** The team of a team event type (decisions §15); null for a personal one. */
    teamId: text("team_id").references(() => teams.id, { onDelete: "cascade" }),
    /** round_robin or collective for a team event type; null for a personal one. */
    schedulingType: text("scheduling_type", { enum: ["round_robin", "collective"] }),
    /** The team members who host it (active members' ids, in the team's order); empty for a personal one. */
    hostIds: jsonb("host_ids").$type<string[]>().notNull().default([]),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    location: text("location").notNull().default(""),
    durationMinutes: integer("duration_minutes").notNull(),
    bufferBeforeMinutes: integer("buffer_before_minutes").notNull().default(0),
    bufferAfterMinutes: integer("buffer_after_minutes").notNull().default(0),
    // Step between slot starts; null means the duration.
    slotIntervalMinutes: integer("slot_interval_minutes"),
    color: text("color").notNull().default("#2563eb"),
    customQuestions: jsonb("custom_questions").$type<CustomQuestion[]>().notNull().default([]),
    isActive: boolean("is_active").notNull().default(true),
    /** Bookings start pending and hold their time until the host confirms (decisions §16). */
    requiresConfirmation: boolean("requires_confirmation").notNull().default(false),
    /** At most so many non-cancelled bookings of this event type per host a local day / ISO week. */
    limits: jsonb("limits").$type<BookingLimits>().notNull().default({}),
    /** Up to five reminders before each booking, to the guest, the host or both. */
    reminders: jsonb("reminders").$type<Reminder[]>().notNull().default([]),
    /** Minimum notice and booking window of this event type; null: the host's. */
    minNoticeHours: integer("min_notice_hours"),
    /** Whose hours a personal event type's slots are made of; null: the host's default schedule. A schedule in use cannot be deleted (the key refuses it). */
    scheduleId: text("schedule_id").references(() => schedules.id),
    maxAdvanceDays: integer("max_advance_days"),
    /** Group sessions: so many guests per start, each a booking of their own; null: one guest per start (decisions §19). */
    seats: jsonb("seats").$type<Seats>(),
    /** Regular sessions: a guest may book a weekly series; null: one start per booking (decisions §19). */
    recurrence: jsonb("recurrence").$type<Recurrence>(),
    /** The calendars whose busy time blocks this event type's slots (decisions §21); null: every calendar marked `checkConflicts`. */
    conflictCalendars: jsonb("conflict_calendars").$type<string[]>(),
    /** Paid sessions: what a guest pays at booking, through Stripe Checkout; null: free (decisions §20). */
    price: jsonb("price").$type<Price>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("event_types_user_slug_key").on(t.userId, t.slug),
    uniqueIndex("event_types_team_slug_key").on(t.teamId, t.slug),
    check(
      "event_types_owner_chk",
      sql`(${t.userId} is null) <> (${t.teamId} is null) and (${t.teamId} is null) = (${t.schedulingType} is null)`,
    ),
    check("event_types_duration_chk", sql`${t.durationMinutes} between 5 and 720`),
    check("event_types_buffers_chk", sql`${t.bufferBeforeMinutes} between 0 and 240 and ${t.bufferAfterMinutes} between 0 and 240`),
  ],
);

export type EventTypeRow = typeof eventTypes.$inferSelect;
