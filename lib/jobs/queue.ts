import "server-only";
import { and, eq, inArray, like, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { outboxJobs } from "@/db/schema";
import type { ClaimedJob } from "./types";

// The outbox table as the worker's queue: claim due jobs under a lease, settle them (jobs are
// added through lib/outbox/enqueue.ts). Every step is one statement or one transaction, so any number of
// workers in any number of processes can share the table.

/** postgres.js answers raw SQL with an array of rows, PGlite with { rows }. */
function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * Claims up to `limit` due jobs of the given kinds for `workerId`: pending ones whose time has
 * come, and running ones whose lease ran out (their worker died or hung). SKIP LOCKED lets
 * concurrent claimers pass each other's rows instead of queueing behind them, so two workers
 * never take the same job; the CTE is MATERIALIZED so PostgreSQL evaluates the locking select
 * exactly once. Each claim counts as an attempt and gets its own token (locked_by).
 * A running job was due when it was claimed (run_after ≤ that claim's now < locked_until), so
 * `run_after <= now` holds for both kinds: the claim reads outbox_jobs_due_idx in its own order,
 * from the oldest due job, and stops at `limit`.
 */
export async function claimJobs(
  db: Db,
  args: { kinds: string[]; limit: number; now: number; leaseMs: number; workerId: string },
): Promise<ClaimedJob[]> {
  if (args.kinds.length === 0 || args.limit <= 0) return [];
  const now = new Date(args.now).toISOString();
  const leaseEnd = new Date(args.now + args.leaseMs).toISOString();
  const result = await db.execute(sql`
    with due as materialized (
      select id from outbox_jobs
      where ${inArray(outboxJobs.kind, args.kinds)}
        and status in ('pending', 'running') and run_after <= ${now}::timestamptz
        and (status = 'pending' or locked_until <= ${now}::timestamptz)
      order by run_after, id
      limit ${args.limit}
      for update skip locked
    )
    update outbox_jobs j
    set status = 'running', attempts = j.attempts + 1, locked_until = ${leaseEnd}::timestamptz,
        locked_by = ${args.workerId}::text || ':' || (j.attempts + 1)
    from due where j.id = due.id
    returning j.id, j.kind, j.payload, j.attempts,
      (extract(epoch from j.created_at) * 1000)::float8 as created_ms, (extract(epoch from j.run_after) * 1000)::float8 as run_after_ms`);
  type Row = { id: number | string; kind: string; payload: unknown; attempts: number | string; created_ms: number | string; run_after_ms: number | string };
  // RETURNING keeps no order: oldest due first, as the claim chose them.
  return rowsOf<Row>(result)
    .map((r) => ({
      runAfter: Number(r.run_after_ms),
      job: {
        id: Number(r.id),
        kind: r.kind,
        // Drivers differ on raw SQL: jsonb may come back parsed or as text (payloads are objects).
        payload: typeof r.payload === "string" ? (JSON.parse(r.payload) as unknown) : r.payload,
        attempt: Number(r.attempts),
        createdAt: new Date(Number(r.created_ms)),
      },
    }))
    .sort((a, b) => a.runAfter - b.runAfter || a.job.id - b.job.id)
    .map((r) => r.job);
}

/** The token a claim wrote into locked_by: only its holder may settle the job. */
export function claimToken(workerId: string, job: ClaimedJob): string {
  return `${workerId}:${job.attempt}`;
}

export type Settlement =
  | { status: "done"; now: number }
  | { status: "pending"; runAfter: number; error: string; now: number }
  | { status: "deferred"; runAfter: number; now: number }
  | { status: "failed"; error: string; now: number };

/**
 * Settles a claimed job, if `token` still holds it. False when the lease was lost (another worker
 * claimed it after it expired): that worker's outcome counts, this one changes nothing.
 */
export async function settleJob(tx: Tx | Db, jobId: number, token: string, s: Settlement): Promise<boolean> {
  const base = { lockedUntil: null, lockedBy: null };
  const set =
    s.status === "done"
      ? { ...base, status: "done" as const, finishedAt: new Date(s.now), lastError: null }
      : s.status === "failed"
        ? { ...base, status: "failed" as const, finishedAt: new Date(s.now), lastError: s.error }
        : s.status === "deferred"
          ? // The claim counted an attempt: a deferral gives it back (it was no failure).
            { ...base, status: "pending" as const, runAfter: new Date(s.runAfter), attempts: sql`${outboxJobs.attempts} - 1` }
          : { ...base, status: "pending" as const, runAfter: new Date(s.runAfter), lastError: s.error };
  const updated = await tx
    .update(outboxJobs)
    .set(set)
    .where(and(eq(outboxJobs.id, jobId), eq(outboxJobs.status, "running"), eq(outboxJobs.lockedBy, token)))
    .returning({ id: outboxJobs.id });
  return updated.length > 0;
}

/**
 * Returns every running job to pending at once. Only for a database no other process can use
 * (embedded PGlite, opened by one process at a time): whatever is running there was left by a
 * previous run of this process that died, and need not wait for its lease to run out.
 */
/**
 * Hands back the jobs a stopping worker still holds (its claims' tokens start with its id), so
 * another worker takes them at once rather than when their lease runs out. The claim stays
 * counted as an attempt; if the stopping worker's handler still finishes, its settlement finds the
 * token gone and changes nothing (at least once, as for a lost lease).
 */
export async function releaseJobsOf(db: Db, workerId: string): Promise<number> {
  const released = await db
    .update(outboxJobs)
    .set({ status: "pending", lockedUntil: null, lockedBy: null })
    .where(and(eq(outboxJobs.status, "running"), like(outboxJobs.lockedBy, `${workerId}:%`)))
    .returning({ id: outboxJobs.id });
  return released.length;
}

export async function releaseOrphanedJobs(db: Db): Promise<number> {
  const released = await db
    .update(outboxJobs)
    .set({ status: "pending", lockedUntil: null, lockedBy: null })
    .where(eq(outboxJobs.status, "running"))
    .returning({ id: outboxJobs.id });
  return released.length;
}
