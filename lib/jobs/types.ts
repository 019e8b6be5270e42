import "server-only";
import type { Db, Tx } from "@/db";
import type { NewJob } from "@/lib/outbox/enqueue";

export type { NewJob };

// The contract between the outbox worker and the work it runs. A handler is registered for one
// job kind; the worker claims due jobs of the kinds it has handlers for, runs them, and settles
// each one (done, retry later, failed) in one transaction with whatever the handler asks for.

/** A job this worker holds a lease on. `attempt` counts this run (1 for the first). */
export type ClaimedJob = {
  id: number;
  kind: string;
  payload: unknown;
  attempt: number;
  createdAt: Date;
};

/**
 * Written in the transaction that settles the job (so it is there exactly when the outcome is):
 * e.g. the webhook attempt row. `nextRunAt` is when the job runs again, null when it will not.
 */
export type RecordAttempt = (tx: Tx, settled: { nextRunAt: Date | null }) => Promise<void>;

export type JobOutcome =
  /** Finished; `enqueue` adds follow-up jobs in the same transaction (fan-out). */
  | { status: "done"; enqueue?: NewJob[]; record?: RecordAttempt }
  /**
   * Not yet: run again at `until` (epoch ms). Not a failure: the attempt does not count and no
   * backoff applies; `enqueue` adds jobs now (e.g. the work being waited for). For short,
   * bounded waits (a meeting link): the handler itself decides when to stop deferring.
   */
  | { status: "defer"; until: number; enqueue?: NewJob[] }
  /** Failed this time; tried again after the backoff, until the attempts run out. */
  | { status: "retry"; error: string; record?: RecordAttempt }
  /** Failed for good (e.g. 410 Gone): never tried again. */
  | { status: "failed"; error: string; record?: RecordAttempt };

export type JobContext = {
  db: Db;
  job: ClaimedJob;
  /** The worker's clock for this run: what scheduling (retries, leases) is computed from. */
  now: number;
};

export type JobHandler = {
  kind: string;
  run(ctx: JobContext): Promise<JobOutcome>;
  /** Attempts before the job is marked failed; default MAX_ATTEMPTS (about a day of retries). */
  maxAttempts?: number;
};
