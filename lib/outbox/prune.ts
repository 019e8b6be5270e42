import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db";

const DAY = 86_400_000;

/** postgres.js answers raw SQL with an array of rows, PGlite with { rows }. */
function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * Deletes outbox rows that finished (done or failed) more than `retentionDays` ago, in batches so
 * no transaction holds many rows. Nothing but the jobs' own record lives in the table (the guest's
 * token has its own), so a pruned row takes nothing a later message needs. SKIP LOCKED: instances
 * pruning at the same time pass each other. Returns how many rows went.
 */
export async function pruneFinishedJobs(db: Db, args: { now: number; retentionDays: number; batch?: number }): Promise<number> {
  const cutoff = new Date(args.now - args.retentionDays * DAY).toISOString();
  const batch = args.batch ?? 5_000;
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`
      with doomed as (
        select id from outbox_jobs
        where status in ('done', 'failed') and finished_at < ${cutoff}::timestamptz
        order by finished_at
        limit ${batch}
        for update skip locked
      )
      delete from outbox_jobs o using doomed where o.id = doomed.id
      returning 1 as gone`);
    const gone = rowsOf<unknown>(result).length;
    total += gone;
    if (gone < batch) return total;
  }
}
