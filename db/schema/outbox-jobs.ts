import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export const jobStatuses = ["pending", "running", "done", "failed"] as const;

// The transactional outbox: written in the same transaction as the change it reports
// (booking events, calendar writes, emails), run later by lib/jobs with retries.
// Finished rows are kept for a while (what ran, when, its last error), then pruned: nothing
// else lives here (the guest's token has its own table, booking_guest_tokens).
// A running job holds a lease (locked_until): a process that dies mid-job loses it, and the job
// is claimed again once the lease has expired. locked_by names the claim (worker and attempt),
// so a worker that lost its lease cannot settle a job another worker now runs.
export const outboxJobs = pgTable(
  "outbox_jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").notNull(),
    status: text("status", { enum: jobStatuses }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    runAfter: timestamp("run_after", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lockedBy: text("locked_by"),
    lastError: text("last_error"),
    /** Jobs made from another job (fan-out) carry a key, so making them twice adds nothing. */
    dedupeKey: text("dedupe_key"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    // The claim's order, unfinished rows only: it walks due jobs oldest first and stops at its
    // limit, never past the finished ones (a busy outbox finishes thousands between vacuums).
    index("outbox_jobs_due_idx").on(t.runAfter, t.id).where(sql`${t.status} in ('pending', 'running')`),
    index("outbox_jobs_lease_idx").on(t.lockedUntil).where(sql`${t.status} = 'running'`),
    uniqueIndex("outbox_jobs_dedupe_key").on(t.dedupeKey),
    // A cancel or a move drops the booking's unsent reminders (lib/outbox/drop.ts): found by the
    // booking, not by reading every pending job (one per upcoming booking and reminder, everyone's).
    index("outbox_jobs_pending_booking_idx").on(sql`(${t.payload} ->> 'bookingId')`).where(sql`${t.status} = 'pending'`),
    // Finished rows are pruned after OUTBOX_RETENTION_DAYS (lib/outbox/prune.ts).
    index("outbox_jobs_finished_idx").on(t.finishedAt).where(sql`${t.status} in ('done', 'failed')`),
  ],
);

export type OutboxJobRow = typeof outboxJobs.$inferSelect;
export type JobStatus = (typeof jobStatuses)[number];
