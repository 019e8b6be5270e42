import { sql } from "drizzle-orm";
import type { Db } from "@/db";
import { resultOf, windowOf, type RateLimitStore } from "./types";

/**
 * Counters in the rate_limits table, shared by every instance on the same database. One
 * upsert per hit, atomic under concurrency: the row lock serialises increments of one key.
 */
export function createPostgresStore(db: Db, now: () => number = Date.now): RateLimitStore {
  let lastSweep = 0;
  return {
    async hit(key, limit, windowSeconds) {
      const t = now();
      const { start, resetSeconds } = windowOf(t, windowSeconds);
      const id = `${windowSeconds}:${key}`;
      const windowStart = new Date(start).toISOString();
      const rows = await db.execute<{ count: number }>(sql`
        insert into rate_limits (key, window_start, count)
        values (${id}, ${windowStart}::timestamptz, 1)
        on conflict (key) do update set
          count = case when rate_limits.window_start = excluded.window_start then rate_limits.count + 1 else 1 end,
          window_start = excluded.window_start
        returning count`);
      const list = Array.isArray(rows) ? rows : (rows as unknown as { rows: { count: number }[] }).rows;
      const count = Number(list[0]?.count ?? 1);
      if (t - lastSweep > 10 * 60_000) {
        lastSweep = t;
        // Old windows are dead weight; any instance may clear them.
        await db.execute(sql`delete from rate_limits where window_start < now() - interval '1 day'`);
      }
      return resultOf(count, limit, resetSeconds);
    },
  };
}
