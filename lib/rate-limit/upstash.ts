import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "@upstash/redis";
import type { RateLimitStore } from "./types";

/** Counters in Upstash Redis (REST), through @upstash/ratelimit's fixed window. */
export function createUpstashStore(opts: { url: string; token: string }): RateLimitStore {
  const redis = new Redis({ url: opts.url, token: opts.token, enableTelemetry: false });
  const limiters = new Map<string, Ratelimit>();
  return {
    async hit(key, limit, windowSeconds) {
      const id = `${limit}/${windowSeconds}`;
      let limiter = limiters.get(id);
      if (!limiter) {
        limiter = new Ratelimit({
          redis,
          limiter: Ratelimit.fixedWindow(limit, `${windowSeconds} s`),
          prefix: `rl:${windowSeconds}`,
          analytics: false,
          // The local cache would answer "blocked" without asking Redis; counts must be shared.
          ephemeralCache: false,
        });
        limiters.set(id, limiter);
      }
      const r = await limiter.limit(key);
      return {
        allowed: r.success,
        limit: r.limit,
        remaining: Math.max(0, r.remaining),
        resetSeconds: Math.max(0, Math.ceil((r.reset - Date.now()) / 1000)),
      };
    },
  };
}
