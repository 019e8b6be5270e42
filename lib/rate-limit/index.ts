import "server-only";
import { getDb } from "@/lib/store/database";
import { getConfig } from "@/lib/config";
import { createMemoryStore } from "./memory";
import { createPostgresStore } from "./postgres";
import type { RateLimitResult, RateLimitStore } from "./types";

export type { RateLimitPolicy, RateLimitResult, RateLimitStore } from "./types";
export { createMemoryStore, createPostgresStore };

// Next.js may load this module in more than one bundle; the counters must be one per process.
const store = globalThis as unknown as { __bookingRateLimit?: Promise<RateLimitStore> };

/**
 * The process store: Upstash when configured; else PostgreSQL when DATABASE_URL is set (counters
 * shared between instances); else memory (the embedded default is a single process).
 */
export function getRateLimitStore(): Promise<RateLimitStore> {
  if (!store.__bookingRateLimit) {
    const opening = (async () => {
      const config = getConfig();
      // Upstash's client is loaded only where it is configured (docs/operations.md "Running in production":
      // a web process holds only what it uses).
      if (config.upstash) return (await import("./upstash")).createUpstashStore(config.upstash);
      if (config.databaseUrl) return createPostgresStore(await getDb());
      return createMemoryStore();
    })();
    store.__bookingRateLimit = opening;
    // A database that failed to open must not disable rate limiting for the process' lifetime.
    opening.catch(() => {
      if (store.__bookingRateLimit === opening) store.__bookingRateLimit = undefined;
    });
  }
  return store.__bookingRateLimit;
}

/**
 * Response headers for a result: the contract's X-RateLimit-*, and the IETF httpapi-ratelimit-headers
 * pair a client library reads (`RateLimit-Policy: "default";q=600;w=60`, `RateLimit:
 * "default";r=599;t=37`) when the result names its policy; Retry-After only on a denial, and
 * never 0 (a client would spin).
 */
export function rateLimitHeaders(r: RateLimitResult): Record<string, string> {
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(r.limit),
    "X-RateLimit-Remaining": String(r.remaining),
    "X-RateLimit-Reset": String(r.resetSeconds),
  };
  if (r.policy) {
    const name = JSON.stringify(r.policy.name);
    headers["RateLimit-Policy"] = `${name};q=${r.limit};w=${r.policy.windowSeconds}`;
    headers["RateLimit"] = `${name};r=${r.remaining};t=${r.resetSeconds}`;
  }
  if (!r.allowed) headers["Retry-After"] = String(Math.max(1, r.resetSeconds));
  return headers;
}
