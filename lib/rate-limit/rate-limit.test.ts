import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openPglite, openPostgres, type Database } from "@/db/client";
import {
  createMemoryStore,
  createPostgresStore,
  getRateLimitStore,
  rateLimitHeaders,
  type RateLimitStore,
} from "@/lib/rate-limit";

// Keys are unique per run: a shared TEST_DATABASE_URL may hold rows from other runs.
const run = randomUUID();
const key = (name: string) => `test:${run}:${name}`;

// Clocks near the real time: the PostgreSQL store sweeps windows that ended long before `now`,
// and a clock far in the future would sweep the live rows of concurrent runs.
const WINDOW = 60;
const windowStart = Math.floor(Date.now() / (WINDOW * 1000)) * WINDOW * 1000;

type Backend = { name: string; store: (now: () => number) => RateLimitStore; database?: () => Database };

function backends(): Backend[] {
  const list: Backend[] = [{ name: "memory", store: (now) => createMemoryStore(now) }];
  const databases: Database[] = [];
  const onDatabase = (name: string, open: () => Promise<Database>) => {
    let database: Database | undefined;
    beforeAll(async () => {
      database = await open();
      await database.migrate();
      databases.push(database);
    });
    const opened = () => {
      if (!database) throw new Error(`${name} is not open`);
      return database;
    };
    list.push({ name, store: (now) => createPostgresStore(opened().db, now), database: opened });
  };
  onDatabase("postgres store on PGlite", () => openPglite(undefined));
  const url = process.env.TEST_DATABASE_URL;
  if (url) onDatabase("postgres store on PostgreSQL", () => openPostgres(url));
  afterAll(async () => {
    for (const d of databases) {
      await d.db.execute(sql`delete from rate_limits where key like ${`%test:${run}:%`}`);
      await d.close();
    }
  });
  return list;
}

describe.each(backends())("$name", ({ name, store, database }) => {
  const k = (n: string) => key(`${name}:${n}`);

  it("denies the (limit+1)th hit of a window, and allows again in the next window", async () => {
    let t = windowStart + 15_500;
    const s = store(() => t);
    for (let i = 1; i <= 3; i++) {
      expect(await s.hit(k("a"), 3, WINDOW)).toEqual({ allowed: true, limit: 3, remaining: 3 - i, resetSeconds: 45 });
    }
    t = windowStart + 59_000;
    expect(await s.hit(k("a"), 3, WINDOW)).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 1 });

    t = windowStart + WINDOW * 1000; // first instant of the next window
    expect(await s.hit(k("a"), 3, WINDOW)).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 60 });
  });

  it("keeps keys, and window lengths of one key, independent", async () => {
    const s = store(() => windowStart + 1_000);
    expect((await s.hit(k("b"), 1, WINDOW)).allowed).toBe(true);
    expect((await s.hit(k("b"), 1, WINDOW)).allowed).toBe(false);
    expect((await s.hit(k("c"), 1, WINDOW)).allowed).toBe(true);
    expect((await s.hit(k("b"), 1, 3600)).allowed).toBe(true);
  });

  it("never allows more than the limit under concurrent hits", async () => {
    const s = store(() => windowStart + 2_000);
    const results = await Promise.all(Array.from({ length: 20 }, () => s.hit(k("burst"), 5, WINDOW)));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    expect(results.filter((r) => !r.allowed).every((r) => r.remaining === 0)).toBe(true);
  });

  it("peeks without counting, and reset forgets the window's count", async () => {
    const s = store(() => windowStart + 4_000);
    expect(await s.peek(k("peek"), 2, WINDOW)).toEqual({ allowed: true, limit: 2, remaining: 2, resetSeconds: 56 });
    await s.hit(k("peek"), 2, WINDOW);
    await s.hit(k("peek"), 2, WINDOW);
    expect(await s.peek(k("peek"), 2, WINDOW)).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 56 });
    expect((await s.peek(k("peek"), 2, WINDOW)).remaining).toBe(0); // peeking twice counted nothing
    await s.reset(k("peek"), WINDOW);
    expect((await s.peek(k("peek"), 2, WINDOW)).remaining).toBe(2);
    expect((await s.hit(k("peek"), 2, WINDOW)).remaining).toBe(1);
  });

  it("giveBack takes one hit back from the current window, never below zero, and leaves an ended window alone", async () => {
    let t = windowStart + 5_000;
    const s = store(() => t);
    for (let i = 0; i < 3; i++) await s.hit(k("give"), 3, WINDOW);
    await s.giveBack(k("give"), WINDOW);
    expect((await s.peek(k("give"), 3, WINDOW)).remaining).toBe(1);
    expect((await s.hit(k("give"), 3, WINDOW)).allowed).toBe(true);
    expect((await s.hit(k("give"), 3, WINDOW)).allowed).toBe(false);

    // Never below zero: giving back more than was counted grants nothing extra.
    await s.giveBack(k("none"), WINDOW);
    await s.hit(k("once"), 1, WINDOW);
    for (let i = 0; i < 3; i++) await s.giveBack(k("once"), WINDOW);
    expect((await s.hit(k("once"), 1, WINDOW)).allowed).toBe(true);
    expect((await s.hit(k("once"), 1, WINDOW)).allowed).toBe(false);
    expect((await s.hit(k("none"), 1, WINDOW)).allowed).toBe(true);
    expect((await s.hit(k("none"), 1, WINDOW)).allowed).toBe(false);

    // A hit of the window before, given back in this one, changes nothing here.
    await s.hit(k("late"), 1, WINDOW);
    t = windowStart + WINDOW * 1000 + 1_000;
    await s.giveBack(k("late"), WINDOW);
    expect((await s.hit(k("late"), 1, WINDOW)).allowed).toBe(true);
    expect((await s.hit(k("late"), 1, WINDOW)).allowed).toBe(false);
  });

  if (database) {
    const keysLike = async (pattern: string) => {
      const result = await database().db.execute<{ key: string }>(
        sql`select key from rate_limits where key like ${pattern}`,
      );
      const rows = Array.isArray(result) ? result : (result as unknown as { rows: { key: string }[] }).rows;
      return rows.map((r) => r.key).sort();
    };

    it("sweeps rows of windows that ended a whole window ago, and only those", async () => {
      const insert = (id: string, startMs: number) =>
        database().db.execute(
          sql`insert into rate_limits (key, window_start, count) values (${id}, ${new Date(startMs).toISOString()}::timestamptz, 1)`,
        );
      await insert(`60:${k("sweep:stale")}`, windowStart - 2 * WINDOW * 1000);
      await insert(`60:${k("sweep:previous")}`, windowStart - WINDOW * 1000);
      await insert(`86400:${k("sweep:long")}`, windowStart - 2 * WINDOW * 1000);
      // A new store sweeps on its first hit, for the window lengths it has used.
      await store(() => windowStart + 3_000).hit(k("sweep:sweeper"), 5, WINDOW);
      expect(await keysLike(`%${k("sweep:")}%`)).toEqual(
        [`60:${k("sweep:previous")}`, `60:${k("sweep:sweeper")}`, `86400:${k("sweep:long")}`].sort(),
      );
    });

    it("shares counts between instances, even one whose clock lags into the previous window", async () => {
      const ahead = store(() => windowStart + WINDOW * 1000 + 500);
      const behind = store(() => windowStart + WINDOW * 1000 - 500);
      expect((await ahead.hit(k("skew"), 2, WINDOW)).remaining).toBe(1);
      // Counted into the newer window rather than resetting it, and told when that one ends.
      expect(await behind.hit(k("skew"), 2, WINDOW)).toEqual({ allowed: true, limit: 2, remaining: 0, resetSeconds: 61 });
      expect((await ahead.hit(k("skew"), 2, WINDOW)).allowed).toBe(false);
    });
  }
});

describe("rateLimitHeaders", () => {
  it("reports limit, remaining and reset on an allowed hit", () => {
    expect(rateLimitHeaders({ allowed: true, limit: 10, remaining: 7, resetSeconds: 42 })).toEqual({
      "X-RateLimit-Limit": "10",
      "X-RateLimit-Remaining": "7",
      "X-RateLimit-Reset": "42",
    });
  });

  it("adds Retry-After on a denial, at least one second", () => {
    expect(rateLimitHeaders({ allowed: false, limit: 10, remaining: 0, resetSeconds: 42 })).toEqual({
      "X-RateLimit-Limit": "10",
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": "42",
      "Retry-After": "42",
    });
    expect(rateLimitHeaders({ allowed: false, limit: 10, remaining: 0, resetSeconds: 0 })["Retry-After"]).toBe("1");
  });
});

describe("getRateLimitStore", () => {
  const global = globalThis as { __bookingRateLimit?: unknown };
  afterEach(() => {
    delete global.__bookingRateLimit;
  });

  it("without Upstash or DATABASE_URL, gives one in-process store", async () => {
    delete global.__bookingRateLimit;
    const s = await getRateLimitStore();
    expect(await getRateLimitStore()).toBe(s);
    expect((await s.hit(key("process"), 1, WINDOW)).allowed).toBe(true);
    expect((await s.hit(key("process"), 1, WINDOW)).allowed).toBe(false);
  });
});
