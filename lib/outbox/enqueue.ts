import "server-only";
import type { Db, Tx } from "@/db";
import { runStatements } from "@/db/client";

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
 * The insert of new jobs as SQL over one parameter, `$n`: the jobs as JSON (`jobsParam`), each
 * skipped when its dedupeKey is taken. `onlyIf`, a condition in SQL, adds them only when it
 * holds (the worker's settlement adds a job's follow-ups only if it still held the job).
 * `payload`, SQL over `j.payload`, completes each payload with what only the statement knows (a
 * new booking's time stamped by the database).
 */
export function insertJobsSql(n: number, onlyIf = "true", payload = "j.payload"): string {
  return `insert into outbox_jobs (kind, payload, run_after, dedupe_key)
  select j.kind, ${payload}, j.run_after::timestamptz, j.dedupe_key
  from json_to_recordset($${n}::text::json) as j(ord int, kind text, payload jsonb, run_after text, dedupe_key text)
  where ${onlyIf}
  order by j.ord
  on conflict (dedupe_key) do nothing`;
}

/** The parameter of insertJobsSql: the jobs in the order given, due at `now` unless they say when. */
export function jobsParam(jobs: NewJob[], now: number): string {
  const due = new Date(now).toISOString();
  return JSON.stringify(
    jobs.map((j, ord) => ({ ord, kind: j.kind, payload: j.payload, run_after: j.runAfter?.toISOString() ?? due, dedupe_key: j.dedupeKey ?? null })),
  );
}

const ENQUEUE_SQL = `
with added as (${insertJobsSql(1)} returning 1)
select (select count(*) from added)::int as added, pg_notify($2::text, '')::text as notified`;

/**
 * Adds jobs inside `tx`: they exist exactly when the transaction commits. A job whose dedupeKey
 * is taken is skipped. The NOTIFY is transactional too: PostgreSQL sends it at commit, to every
 * instance listening, and drops it on rollback. One prepared statement.
 */
export async function enqueueJobs(tx: Tx | Db, jobs: NewJob[], now: number = Date.now()): Promise<void> {
  if (jobs.length === 0) return;
  await runStatements(tx)([{ text: ENQUEUE_SQL, params: [jobsParam(jobs, now), JOBS_CHANNEL] }]);
}
