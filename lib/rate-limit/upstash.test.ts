import { randomUUID } from "node:crypto";
import { Redis } from "@upstash/redis";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimitHeaders } from "@/lib/rate-limit";
import { createUpstashStore } from "@/lib/rate-limit/upstash";
import { startUpstashRestServer, type UpstashRestServer } from "@/tests/support/upstash-rest-server";

// The Upstash store runs against a real Redis behind a local REST front (see the server's
// comment). Without Redis the suite is skipped locally, and fails in CI, where it must run.
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const TOKEN = "test-token";
const run = `rl-test:${randomUUID()}`;

async function redisIsUp(): Promise<boolean> {
  const probe = createClient({ url: REDIS_URL, socket: { connectTimeout: 1_000, reconnectStrategy: false } });
  probe.on("error", () => {});
  try {
    await probe.connect();
    await probe.ping();
    await probe.close();
    return true;
  } catch {
    if (probe.isOpen) probe.destroy();
    return false;
  }
}

const redisUp = await redisIsUp();
const skip = !redisUp && process.env.CI !== "true";
if (skip) console.warn(`[upstash store] Redis is not reachable at ${REDIS_URL}: Upstash store tests skipped (they are required when CI=true)`);

/** Waits for a fresh fixed window when the current one is about to end, so a test's hits share one. */
async function freshWindow(windowSeconds: number, needMs = 2_000) {
  const windowMs = windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await new Promise((r) => setTimeout(r, left + 20));
}

describe.skipIf(skip)("Upstash store (REST front on real Redis)", () => {
  let server: UpstashRestServer;

  beforeAll(async () => {
    if (!redisUp) throw new Error(`CI=true but Redis is not reachable at ${REDIS_URL}`);
    server = await startUpstashRestServer({ redisUrl: REDIS_URL, token: TOKEN });
  });

  afterAll(async () => {
    await server?.close();
    if (!redisUp) return;
    const redis = createClient({ url: REDIS_URL });
    await redis.connect();
    for await (const keys of redis.scanIterator({ MATCH: `*${run}*`, COUNT: 100 })) {
      if (keys.length) await redis.del(keys);
    }
    await redis.close();
  });

  it("the REST front answers as Upstash: base64 strings, errors passed through, token checked", async () => {
    const redis = new Redis({ url: server.url, token: TOKEN, enableTelemetry: false, enableAutoPipelining: false });
    expect(await redis.set(`${run}:plain`, "grüße")).toBe("OK");
    expect(await redis.get(`${run}:plain`)).toBe("grüße");
    await expect(redis.evalsha("0".repeat(40), [], [])).rejects.toThrow(/NOSCRIPT/);
    await expect(redis.eval("return redis.call('nosuchcommand')", [], [])).rejects.toThrow(/Unknown Redis command/);

    const tx = redis.multi();
    tx.set(`${run}:tx`, "v");
    tx.incr(`${run}:tx`);
    await expect(tx.exec()).rejects.toThrow(/not an integer/);
    expect(await redis.get(`${run}:tx`)).toBe("v");

    const stranger = new Redis({ url: server.url, token: "wrong", enableTelemetry: false });
    await expect(stranger.get(`${run}:plain`)).rejects.toThrow(/Unauthorized/);
  });

  it("allows exactly `limit` hits in a window, then denies with Retry-After", async () => {
    await freshWindow(60);
    const store = createUpstashStore({ url: server.url, token: TOKEN });
    const id = `${run}:exact`;
    for (let i = 1; i <= 3; i++) {
      const r = await store.hit(id, 3, 60);
      expect(r).toMatchObject({ allowed: true, limit: 3, remaining: 3 - i });
      expect(r.resetSeconds).toBeGreaterThanOrEqual(1);
      expect(r.resetSeconds).toBeLessThanOrEqual(60);
    }
    const denied = await store.hit(id, 3, 60);
    expect(denied).toMatchObject({ allowed: false, limit: 3, remaining: 0 });
    const headers = rateLimitHeaders(denied);
    expect(headers).toMatchObject({ "X-RateLimit-Limit": "3", "X-RateLimit-Remaining": "0" });
    expect(headers["Retry-After"]).toBe(String(Math.max(1, denied.resetSeconds)));
    expect(Number(headers["X-RateLimit-Reset"])).toBeLessThanOrEqual(60);

    // Another instance sees the same count: answers come from Redis, not a local cache.
    const other = createUpstashStore({ url: server.url, token: TOKEN });
    expect((await other.hit(id, 3, 60)).allowed).toBe(false);
    expect((await other.hit(`${run}:exact-other-key`, 3, 60)).allowed).toBe(true);
  });

  it("asks Redis every time, even after a denial (no in-process cache)", async () => {
    await freshWindow(60);
    const store = createUpstashStore({ url: server.url, token: TOKEN });
    const id = `${run}:no-cache`;
    await store.hit(id, 1, 60);
    expect((await store.hit(id, 1, 60)).allowed).toBe(false);
    // An operator clearing the counter in Redis is seen at once by the same instance.
    const redis = createClient({ url: REDIS_URL });
    await redis.connect();
    for await (const keys of redis.scanIterator({ MATCH: `rl:${id}:*` })) if (keys.length) await redis.del(keys);
    await redis.close();
    expect((await store.hit(id, 1, 60)).allowed).toBe(true);
  });

  it("never allows more than the limit under concurrent hits", async () => {
    await freshWindow(60);
    const store = createUpstashStore({ url: server.url, token: TOKEN });
    const results = await Promise.all(Array.from({ length: 20 }, () => store.hit(`${run}:burst`, 5, 60)));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
  });

  it("allows again in the next window", async () => {
    await freshWindow(1, 500);
    const store = createUpstashStore({ url: server.url, token: TOKEN });
    const id = `${run}:next-window`;
    expect((await store.hit(id, 1, 1)).allowed).toBe(true);
    const denied = await store.hit(id, 1, 1);
    expect(denied).toMatchObject({ allowed: false, resetSeconds: 1 });
    await new Promise((r) => setTimeout(r, 1_050));
    expect((await store.hit(id, 1, 1)).allowed).toBe(true);
  });

  it("peeks without counting, and reset clears the key", async () => {
    await freshWindow(60);
    const store = createUpstashStore({ url: server.url, token: TOKEN });
    const id = `${run}:peek`;
    expect(await store.peek(id, 2, 60)).toMatchObject({ allowed: true, limit: 2, remaining: 2 });
    await store.hit(id, 2, 60);
    await store.hit(id, 2, 60);
    expect(await store.peek(id, 2, 60)).toMatchObject({ allowed: false, remaining: 0 });
    await store.reset(id, 60);
    expect(await store.peek(id, 2, 60)).toMatchObject({ allowed: true, remaining: 2 });
    expect((await store.hit(id, 2, 60)).remaining).toBe(1);
  });

  it("giveBack takes one hit back from the window: a key at its limit is allowed once more", async () => {
    await freshWindow(60);
    const store = createUpstashStore({ url: server.url, token: TOKEN });
    const id = `${run}:give-back`;
    for (let i = 0; i < 3; i++) await store.hit(id, 3, 60);
    await store.giveBack(id, 60);
    expect(await store.peek(id, 3, 60)).toMatchObject({ allowed: true, remaining: 1 });
    expect((await store.hit(id, 3, 60)).allowed).toBe(true);
    expect((await store.hit(id, 3, 60)).allowed).toBe(false);
  });

  it("fails rather than allows when the token is wrong", async () => {
    const store = createUpstashStore({ url: server.url, token: "wrong" });
    await expect(store.hit(`${run}:denied`, 3, 60)).rejects.toThrow(/Unauthorized/);
  });
});
