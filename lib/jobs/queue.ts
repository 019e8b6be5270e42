import "server-only";
import { and, eq, like } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { runStatements, type StatementParam } from "@/db/client";
import { outboxJobs } from "@/db/schema";
import { insertJobsSql, JOBS_CHANNEL, jobsParam, type NewJob } from "@/lib/outbox/enqueue";
import type { ClaimedJob } from "./types";

// The outbox table as the worker's queue: claim due jobs under a lease, settle them (jobs are
// added through lib/outbox/enqueue.ts). Every step is one statement or one transaction, so any number of
// workers in any number of processes can share the table.

const CLAIM_SQL = `
with due as materialized (
  select id from outbox_jobs
  where kind = any(array(select json_array_elements_text($1::text::json)))
    and status in ('pending', 'running') and run_after <= $2::text::timestamptz
    and (status = 'pending' or locked_until <= $2::text::timestamptz)
  order by run_after, id
  limit $3::int
  for update skip locked
)
update outbox_jobs j
set status = 'running', attempts = j.attempts + 1, locked_until = $4::text::timestamptz,
    locked_by = $5::text || ':' || (j.attempts + 1)
from due where j.id = due.id
returning j.id, j.kind, j.payload, j.attempts,
  (extract(epoch from j.created_at) * 1000)::float8 as created_ms, (extract(epoch from j.run_after) * 1000)::float8 as run_after_ms`;

/**
 * Claims up to `limit` due jobs of the given kinds for `workerId`: pending ones whose time has
 * come, and running ones whose lease ran out (their worker died or hung). SKIP LOCKED lets
 * concurrent claimers pass each other's rows instead of queueing behind them, so two workers
 * never take the same job; the CTE is MATERIALIZED so PostgreSQL evaluates the locking select
 * exactly once. Each claim counts as an attempt and gets its own token (locked_by).
 * A running job was due when it was claimed (run_after ≤ that claim's now < locked_until), so
 * `run_after <= now` holds for both kinds: the claim reads outbox_jobs_due_idx in its own order,
 * from the oldest due job, and stops at `limit`. One prepared statement (the worker's most
 * frequent one, with the settlements).
 */
export async function claimJobs(
  db: Db,
  args: { kinds: string[]; limit: number; now: number; leaseMs: number; workerId: string },
): Promise<ClaimedJob[]> {
  if (args.kinds.length === 0 || args.limit <= 0) return [];
  const now = new Date(args.now).toISOString();
  const leaseEnd = new Date(args.now + args.leaseMs).toISOString();
  type Row = { id: number | string; kind: string; payload: unknown; attempts: number | string; created_ms: number | string; run_after_ms: number | string };
  const [rows] = await runStatements(db)<[Row[]]>([{ text: CLAIM_SQL, params: [JSON.stringify(args.kinds), now, args.limit, leaseEnd, args.workerId] }]);
  // RETURNING keeps no order: oldest due first, as the claim chose them.
  return rows
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

// Each outcome's UPDATE, if the token still holds the job: $1 the job, $2 the token, then the
// outcome's values. A deferral gives back the attempt its claim counted (it was no failure).
const HELD = `where id = $1::bigint and status = 'running' and locked_by = $2::text`;
const SETTLE_SQL: Record<Settlement["status"], string> = {
  done: `update outbox_jobs set status = 'done', finished_at = $3::text::timestamptz, last_error = null, locked_until = null, locked_by = null ${HELD}`,
  failed: `update outbox_jobs set status = 'failed', finished_at = $3::text::timestamptz, last_error = $4::text, locked_until = null, locked_by = null ${HELD}`,
  deferred: `update outbox_jobs set status = 'pending', run_after = $3::text::timestamptz, attempts = attempts - 1, locked_until = null, locked_by = null ${HELD}`,
  pending: `update outbox_jobs set status = 'pending', run_after = $3::text::timestamptz, last_error = $4::text, locked_until = null, locked_by = null ${HELD}`,
};

function settleParams(jobId: number, token: string, s: Settlement): StatementParam[] {
  const iso = (ms: number) => new Date(ms).toISOString();
  switch (s.status) {
    case "done":
      return [jobId, token, iso(s.now)];
    case "failed":
      return [jobId, token, iso(s.now), s.error];
    case "deferred":
      return [jobId, token, iso(s.runAfter)];
    case "pending":
      return [jobId, token, iso(s.runAfter), s.error];
  }
}

/**
 * Settles a claimed job, if `token` still holds it. False when the lease was lost (another worker
 * claimed it after it expired): that worker's outcome counts, this one changes nothing.
 */
export async function settleJob(tx: Tx | Db, jobId: number, token: string, s: Settlement): Promise<boolean> {
  const [rows] = await runStatements(tx)<[{ id: unknown }[]]>([{ text: `${SETTLE_SQL[s.status]} returning id`, params: settleParams(jobId, token, s) }]);
  return rows.length > 0;
}

// A settlement with follow-up jobs: the jobs are $4 and the channel told of them $5, after the
// settlement's own three parameters.
function settleWithJobsSql(status: "done" | "deferred"): string {
  return `
with settled as (${SETTLE_SQL[status]} returning id),
added as (${insertJobsSql(4, "exists (select from settled)")} returning 1)
select (select count(*) from added)::int as added, pg_notify($5::text, '')::text as notified from settled`;
}
const SETTLE_WITH_JOBS_SQL = { done: settleWithJobsSql("done"), deferred: settleWithJobsSql("deferred") };

/**
 * Settles a job that is done (or deferred) and adds its follow-up jobs (a fan-out's), in one
 * statement, so all or nothing: the jobs are added, and idle workers told at the commit, only if
 * `token` still holds the job (a fan-out run twice after a lost lease adds them once). False when
 * the lease was lost.
 */
export async function settleJobAndEnqueue(db: Db, jobId: number, token: string, s: Settlement & { status: "done" | "deferred" }, jobs: NewJob[]): Promise<boolean> {
  const params = [...settleParams(jobId, token, s), jobsParam(jobs, s.now), JOBS_CHANNEL];
  const [rows] = await runStatements(db)<[{ added: number }[]]>([{ text: SETTLE_WITH_JOBS_SQL[s.status], params }]);
  return rows.length > 0;
}

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

/**
 * Returns every running job to pending at once. Only for a database no other process can use
 * (embedded PGlite, opened by one process at a time): whatever is running there was left by a
 * previous run of this process that died, and need not wait for its lease to run out.
 */
export async function releaseOrphanedJobs(db: Db): Promise<number> {
  const released = await db
    .update(outboxJobs)
    .set({ status: "pending", lockedUntil: null, lockedBy: null })
    .where(eq(outboxJobs.status, "running"))
    .returning({ id: outboxJobs.id });
  return released.length;
}
