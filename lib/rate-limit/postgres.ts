import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db";
import { log } from "@/lib/log";
import { peekResultOf, resultOf, windowOf, type RateLimitStore } from "./types";

const SWEEP_EVERY_MS = 10 * 60_000;

/**
 * Counters in the rate_limits table, shared by every instance on the same database. One
 * upsert per hit: the row lock serialises concurrent increments of a key, so no read-then-write
 * window lets two instances both see "one left".
 */
export function createPostgresStore(db: Db, now: () => number = Date.now): RateLimitStore {
  let lastSweep = 0;
  const windowsSeen = new Set<number>();

  async function sweep(t: number) {
    lastSweep = t;
    for (const windowSeconds of windowsSeen) {
      const windowMs = windowSeconds * 1000;
      // Only rows of this window length, and only those that ended a whole window ago, so an
      // instance whose clock runs a little behind never loses a counter it is still using.
      const before = new Date(windowOf(t, windowSeconds).start - windowMs).toISOString();
      await db.execute(sql`
        delete from rate_limits
        where key like ${`${windowSeconds}:%`} and window_start < ${before}::timestamptz`);
    }
  }

  return {
    async hit(key, limit, windowSeconds) {
      const t = now();
      const windowMs = windowSeconds * 1000;
      // The window length is part of the key: one key used with two windows must not make one
      // row flip between two window starts.
      const id = `${windowSeconds}:${key}`;
      const windowStart = new Date(windowOf(t, windowSeconds).start).toISOString();
      // An instance whose clock lags behind the one that opened the stored window counts into
      // that newer window (greatest) instead of resetting it, so skew cannot grant extra hits.
      const result = await db.execute<{ count: number | string; window_start_ms: number | string }>(sql`
        insert into rate_limits as r (key, window_start, count)
        values (${id}, ${windowStart}::timestamptz, 1)
        on conflict (key) do update set
          count = case when excluded.window_start > r.window_start then 1 else r.count + 1 end,
          window_start = greatest(r.window_start, excluded.window_start)
        returning r.count, (extract(epoch from r.window_start) * 1000)::float8 as window_start_ms`);
      // postgres.js answers with an array of rows, PGlite with { rows }.
      const rows = Array.isArray(result) ? result : (result as unknown as { rows: unknown[] }).rows;
      const row = rows[0] as { count: number | string; window_start_ms: number | string } | undefined;
      if (!row) throw new Error("rate_limits upsert returned no row");
      const resetMs = Number(row.window_start_ms) + windowMs - t;

      windowsSeen.add(windowSeconds);
      if (t - lastSweep > SWEEP_EVERY_MS) {
        // Housekeeping must not fail the request it rides on; the next sweep tries again.
        await sweep(t).catch((err: unknown) => log.warn({ err }, "rate_limits sweep failed"));
      }
      return resultOf(Number(row.count), limit, Math.max(0, Math.ceil(resetMs / 1000)));
    },
    async peek(key, limit, windowSeconds) {
      const t = now();
      const { start, resetSeconds } = windowOf(t, windowSeconds);
      const result = await db.execute(sql`
        select count from rate_limits where key = ${`${windowSeconds}:${key}`} and window_start >= ${new Date(start).toISOString()}::timestamptz`);
      const rows = (Array.isArray(result) ? result : (result as unknown as { rows: unknown[] }).rows) as { count: number | string }[];
      return peekResultOf(Number(rows[0]?.count ?? 0), limit, resetSeconds);
    },
    async reset(key, windowSeconds) {
      await db.execute(sql`delete from rate_limits where key = ${`${windowSeconds}:${key}`}`);
    },
    async giveBack(key, windowSeconds) {
      // The current window, or a newer one an instance whose clock runs ahead opened (hit counts
      // into that one, greatest()); one statement, so the row lock orders it with concurrent hits.
      const start = new Date(windowOf(now(), windowSeconds).start).toISOString();
      await db.execute(sql`
        update rate_limits set count = count - 1
        where key = ${`${windowSeconds}:${key}`} and window_start >= ${start}::timestamptz and count > 0`);
    },
  };
}
