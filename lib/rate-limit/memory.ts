import "server-only";
import { peekResultOf, resultOf, windowOf, type RateLimitStore } from "./types";

/** Counters in this process: the embedded default, one instance serving everything. */
export function createMemoryStore(now: () => number = Date.now): RateLimitStore {
  const counters = new Map<string, { windowStart: number; windowEnd: number; count: number }>();
  let lastSweep = 0;

  return {
    async hit(key, limit, windowSeconds) {
      const t = now();
      // Drop finished windows now and then, so memory stays bounded by the active keys.
      if (t - lastSweep > 60_000) {
        for (const [k, v] of counters) if (v.windowEnd <= t) counters.delete(k);
        lastSweep = t;
      }
      const { start, resetSeconds } = windowOf(t, windowSeconds);
      const id = `${windowSeconds}:${key}`;
      const entry = counters.get(id);
      const count = entry && entry.windowStart === start ? entry.count + 1 : 1;
      counters.set(id, { windowStart: start, windowEnd: start + windowSeconds * 1000, count });
      return resultOf(count, limit, resetSeconds);
    },
    async peek(key, limit, windowSeconds) {
      const { start, resetSeconds } = windowOf(now(), windowSeconds);
      const entry = counters.get(`${windowSeconds}:${key}`);
      return peekResultOf(entry && entry.windowStart === start ? entry.count : 0, limit, resetSeconds);
    },
    async reset(key, windowSeconds) {
      counters.delete(`${windowSeconds}:${key}`);
    },
    async giveBack(key, windowSeconds) {
      const entry = counters.get(`${windowSeconds}:${key}`);
      if (entry && entry.windowStart === windowOf(now(), windowSeconds).start && entry.count > 0) entry.count -= 1;
    },
  };
}
