import "server-only";
/** A limit's name and window, for the RateLimit-Policy header (IETF httpapi-ratelimit-headers). */
export type RateLimitPolicy = { name: string; windowSeconds: number };

export type RateLimitResult = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets, >= 0. */
  resetSeconds: number;
  /** Which limit this is; set by the caller that knows (the stores count keys, not policies). */
  policy?: RateLimitPolicy;
};

/**
 * A fixed-window counter: at most `limit` allowed hits per key inside each window of
 * `windowSeconds`, never a refilling bucket.
 */
export interface RateLimitStore {
  hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult>;
  /** The key's state in the current window, counting nothing. */
  peek(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult>;
  /** Forgets the key's count in the current window (a successful login clears its failures). */
  reset(key: string, windowSeconds: number): Promise<void>;
  /**
   * Takes one hit back from the key's current window, never below zero (a successful login gives
   * back what it counted against its client address). A window that ended since is left alone.
   */
  giveBack(key: string, windowSeconds: number): Promise<void>;
}

/** The state of a key whose window holds `count` hits, for peek: "allowed" means one more may come. */
export function peekResultOf(count: number, limit: number, resetSeconds: number): RateLimitResult {
  return { allowed: count < limit, limit, remaining: Math.max(0, limit - count), resetSeconds };
}

export function windowOf(nowMs: number, windowSeconds: number) {
  const windowMs = windowSeconds * 1000;
  const start = Math.floor(nowMs / windowMs) * windowMs;
  return { start, resetSeconds: Math.max(0, Math.ceil((start + windowMs - nowMs) / 1000)) };
}

export function resultOf(count: number, limit: number, resetSeconds: number): RateLimitResult {
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetSeconds };
}
