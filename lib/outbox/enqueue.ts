import "server-only";
import { sql } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { outboxJobs } from "@/db/schema";

// The one door for side effects: a service that wants something done after its change (an
// email, a webhook, a calendar write) adds a job here, inside the transaction of the change, and
// the worker (lib/jobs) does it after the commit. Services never call the worker.

/** A job to add to the outbox. */
export type NewJob = {
  kind: string;
  payload: unknown;
  /** Defaults to now: due at once. */
  runAfter?: Date;
  /**
   * A job made twice with the same key is made once. Fan-out uses it, so a fan-out job that
   * runs again after a crash adds no second delivery.
   */
  dedupeKey?: string;
};

/** The channel a commit with new jobs is announced on (PostgreSQL NOTIFY), so idle workers wake. */
export const JOBS_CHANNEL = "booking_jobs";

/**
 * Adds jobs inside `tx`: they exist exactly when the transaction commits. A job whose dedupeKey
 * is taken is skipped. The NOTIFY is transactional too: PostgreSQL sends it at commit, to every
 * instance listening, and drops it on rollback.
 */
export async function enqueueJobs(tx: Tx | Db, jobs: NewJob[], now: number = Date.now()): Promise<void> {
  if (jobs.length === 0) return;
  await tx
    .insert(outboxJobs)
    .values(jobs.map((j) => ({ kind: j.kind, payload: j.payload, runAfter: j.runAfter ?? new Date(now), dedupeKey: j.dedupeKey ?? null })))
    .onConflictDoNothing({ target: outboxJobs.dedupeKey });
  await tx.execute(sql`select pg_notify(${JOBS_CHANNEL}, '')`);
}

