import { sql } from "drizzle-orm";
import { boolean, check, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { CustomQuestion } from "./enums";
import { users } from "./users";

export const eventTypes = pgTable(
  "event_types",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
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
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("event_types_user_slug_key").on(t.userId, t.slug),
    check("event_types_duration_chk", sql`${t.durationMinutes} between 5 and 720`),
    check("event_types_buffers_chk", sql`${t.bufferBeforeMinutes} between 0 and 240 and ${t.bufferAfterMinutes} between 0 and 240`),
  ],
);

export type EventTypeRow = typeof eventTypes.$inferSelect;
