import "server-only";
import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "@upstash/redis";
import { log } from "@/lib/log";
import { windowOf, type RateLimitStore } from "./types";

/** Counters in Upstash Redis (REST), through @upstash/ratelimit's fixed window. */
export function createUpstashStore(opts: { url: string; token: string }): RateLimitStore {
  const redis = new Redis({ url: opts.url, token: opts.token, enableTelemetry: false });
  // A Ratelimit is bound to one (limit, window) pair; building one per hit would be waste.
  const limiters = new Map<string, Ratelimit>();

  function limiterFor(limit: number, windowSeconds: number): Ratelimit {
    const id = `${limit}/${windowSeconds}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = new Ratelimit({
        redis,
        limiter: Ratelimit.fixedWindow(limit, `${windowSeconds} s`),
        prefix: "rl",
        analytics: false,
        // The in-process cache would answer "blocked" without asking Redis, and would not see
        // another instance's counts: every answer must come from Redis.
        ephemeralCache: false,
      });
      limiters.set(id, limiter);
    }
    return limiter;
  }

  return {
    async hit(key, limit, windowSeconds) {
      const r = await limiterFor(limit, windowSeconds).limit(key);
      if (r.reason === "timeout") {
        // The library lets the request through when Redis has not answered within its timeout
        // (5 s) and reports zeros; report our own limit and window instead of those zeros.
        log.warn({ limit, windowSeconds }, "rate limit: Upstash timed out, request allowed");
        const { resetSeconds } = windowOf(Date.now(), windowSeconds);
        return { allowed: true, limit, remaining: Math.max(0, limit - 1), resetSeconds };
      }
      return {
        allowed: r.success,
        limit: r.limit,
        remaining: Math.max(0, r.remaining),
        // `reset` is the end of the fixed window as a Unix timestamp in milliseconds.
        resetSeconds: Math.max(0, Math.ceil((r.reset - Date.now()) / 1000)),
      };
    },
    async peek(key, limit, windowSeconds) {
      const r = await limiterFor(limit, windowSeconds).getRemaining(key);
      const resetSeconds = r.reset > 0 ? Math.max(0, Math.ceil((r.reset - Date.now()) / 1000)) : windowOf(Date.now(), windowSeconds).resetSeconds;
      return { allowed: r.remaining > 0, limit, remaining: Math.max(0, r.remaining), resetSeconds };
    },
    async reset(key, windowSeconds) {
      // The limit is not part of the stored key: any limiter of this window resets it.
      const limiter = [...limiters.entries()].find(([id]) => id.endsWith(`/${windowSeconds}`))?.[1] ?? limiterFor(1, windowSeconds);
      await limiter.resetUsedTokens(key);
    },
    async giveBack(key, windowSeconds) {
      // A negative rate is the library's refund: INCRBY -1 on the current window's counter. As
      // for reset, the limit is not part of the key. Across a window's end a refund lands in the
      // new window (one more attempt there, once), which the library gives no way to avoid.
      const limiter = [...limiters.entries()].find(([id]) => id.endsWith(`/${windowSeconds}`))?.[1] ?? limiterFor(1, windowSeconds);
      await limiter.limit(key, { rate: -1 });
    },
  };
}
