import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db";

/** Jobs waiting and running, and how long the oldest due one has waited (seconds): for the metrics. */
export async function outboxDepth(db: Db): Promise<{ status: string; jobs: number; age: number }[]> {
  const result = await db.execute(sql`
    select status, count(*)::int as jobs,
           coalesce(extract(epoch from now() - min(run_after) filter (where run_after <= now())), 0)::float8 as age
    from outbox_jobs where status in ('pending', 'running') group by status`);
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { status: string; jobs: number; age: number }[];
}
