import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { outboxJobs } from "@/db/schema";
import { enqueueJobs } from "@/lib/outbox/enqueue";
import { claimJobs, releaseOrphanedJobs } from "@/lib/jobs/queue";
import type { JobHandler } from "@/lib/jobs/types";
import { requestLoad, type RequestLoad } from "@/lib/lifecycle";
import { JobWorker } from "@/lib/jobs/worker";
import { withTestDatabase } from "../support/database";

// The worker's contract with any job kind (calendar writes will be one more): it runs only kinds
// it has handlers for, retries what throws with backoff, honours a handler's attempt limit, adds
// follow-up jobs once even when a job runs twice, and settles nothing it no longer holds.

withTestDatabase({ isolated: true });

const MINUTE = 60_000;
let seq = 0;
const kindOf = (name: string) => `test.${name}.${++seq}`;

async function add(kind: string, payload: unknown = {}, now = Date.now()) {
  const db = await getDb();
  await db.transaction((tx) => enqueueJobs(tx, [{ kind, payload }], now));
  return (await db.select().from(outboxJobs).where(eq(outboxJobs.kind, kind)))[0]!;
}

async function jobsOf(kinds: string[]) {
  return (await getDb()).select().from(outboxJobs).where(inArray(outboxJobs.kind, kinds)).orderBy(outboxJobs.id);
}

/** A promise and its resolve (Promise.withResolvers is Node 22). */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Requests in flight, as server.mjs counts them for lib/lifecycle.ts's requestLoad. */
class TrafficLoad implements RequestLoad {
  private requests = 0;
  private waiting: Array<() => void> = [];
  begin() {
    this.requests += 1;
  }
  end() {
    this.requests -= 1;
    if (this.requests === 0) for (const resume of this.waiting.splice(0)) resume();
  }
  busy() {
    return this.requests > 0;
  }
  idle(maxMs: number) {
    return new Promise<void>((resolve) => {
      if (this.requests === 0) return resolve();
      this.waiting.push(resolve);
      setTimeout(resolve, maxMs);
    });
  }
}

function worker(handlers: JobHandler[], leaseMs = 60_000) {
  return getDb().then((db) => new JobWorker({ db, handlers, leaseMs, random: () => 0.5 }));
}

describe("outbox worker", () => {
  it("runs only the kinds it has a handler for", async () => {
    const mine = kindOf("mine");
    const theirs = kindOf("theirs");
    const t0 = Date.now();
    await add(mine, {}, t0);
    await add(theirs, {}, t0);
    const seen: string[] = [];
    const w = await worker([{ kind: mine, run: async ({ job }) => (seen.push(job.kind), { status: "done" }) }]);
    expect(await w.runDueJobs(t0 + 1_000)).toBe(1);
    expect(seen).toEqual([mine]);
    expect((await jobsOf([mine, theirs])).map((j) => j.status)).toEqual(["done", "pending"]);
  });

  it("retries a handler that throws, with backoff, and records the error", async () => {
    const kind = kindOf("flaky");
    const t0 = Date.now();
    await add(kind, {}, t0);
    let calls = 0;
    const w = await worker([
      {
        kind,
        run: async () => {
          calls += 1;
          if (calls < 3) throw new Error(`boom ${calls}`);
          return { status: "done" };
        },
      },
    ]);
    await w.runDueJobs(t0);
    let [job] = await jobsOf([kind]);
    expect(job).toMatchObject({ status: "pending", attempts: 1, lastError: "boom 1", lockedBy: null });
    expect(job!.runAfter.getTime() - t0).toBe(MINUTE);
    expect(await w.runDueJobs(t0 + MINUTE - 1)).toBe(0);
    expect(await w.runDueJobs(t0 + MINUTE)).toBe(1);
    [job] = await jobsOf([kind]);
    expect(job).toMatchObject({ status: "pending", attempts: 2, lastError: "boom 2" });
    expect(job!.runAfter.getTime() - (t0 + MINUTE)).toBe(2 * MINUTE);
    await w.runDueJobs(t0 + 3 * MINUTE);
    [job] = await jobsOf([kind]);
    expect(job).toMatchObject({ status: "done", attempts: 3, lastError: null });
    expect(job!.finishedAt).toBeInstanceOf(Date);
  });

  it("marks a job failed after the handler's attempt limit, or at once when the handler says so", async () => {
    const limited = kindOf("limited");
    const fatal = kindOf("fatal");
    const t0 = Date.now();
    await add(limited, {}, t0);
    await add(fatal, {}, t0);
    const w = await worker([
      { kind: limited, maxAttempts: 2, run: async () => ({ status: "retry", error: "try again" }) },
      { kind: fatal, run: async () => ({ status: "failed", error: "never" }) },
    ]);
    await w.runDueJobs(t0);
    await w.runDueJobs(t0 + 10 * MINUTE);
    expect((await jobsOf([limited, fatal])).map((j) => [j.status, j.attempts, j.lastError])).toEqual([
      ["failed", 2, "try again"],
      ["failed", 1, "never"],
    ]);
    expect(await w.runDueJobs(t0 + 48 * 60 * MINUTE)).toBe(0);
  });

  it("a job run twice (its lease ran out) adds its follow-ups once, and only the holder settles it", async () => {
    const parent = kindOf("parent");
    const child = kindOf("child");
    const t0 = Date.now();
    await add(parent, {}, t0);
    const gates = [deferred(), deferred()];
    let runs = 0;
    const fanOut: JobHandler = {
      kind: parent,
      run: async ({ job }) => {
        const run = ++runs;
        await gates[run - 1]!.promise; // each run stalls until the test lets it go
        return { status: "done", enqueue: [{ kind: child, payload: { run }, dedupeKey: `${child}:${job.id}` }] };
      },
    };
    const first = await worker([fanOut], 1_000);
    const second = await worker([fanOut], 1_000);
    const firstRun = first.runDueJobs(t0);
    await expect.poll(() => runs).toBe(1);
    expect(await second.runDueJobs(t0 + 500)).toBe(0); // still leased
    const secondRun = second.runDueJobs(t0 + 1_500); // lease over: taken again
    await expect.poll(() => runs).toBe(2);

    // The first run ends while the second holds the job: it may not settle it nor add anything.
    gates[0]!.resolve();
    await firstRun;
    expect((await jobsOf([parent]))[0]).toMatchObject({ status: "running", lockedBy: `${second.id}:2` });
    expect(await jobsOf([child])).toEqual([]);

    gates[1]!.resolve();
    await secondRun;
    expect((await jobsOf([parent]))[0]).toMatchObject({ status: "done", attempts: 2, lockedBy: null });
    expect((await jobsOf([child])).map((c) => c.payload)).toEqual([{ run: 2 }]); // the holder's follow-up, once
  });

  it("claims each due job once among concurrent claimers", async () => {
    const kind = kindOf("many");
    const t0 = Date.now();
    const db = await getDb();
    await db.transaction((tx) => enqueueJobs(tx, Array.from({ length: 60 }, (_, i) => ({ kind, payload: { i } })), t0));
    const claims = await Promise.all(
      ["a", "b", "c"].map((workerId) => claimJobs(db, { kinds: [kind], limit: 25, now: t0, leaseMs: 60_000, workerId })),
    );
    const ids = claims.flat().map((j) => j.id);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
    expect(claims.flat().every((j) => j.attempt === 1)).toBe(true);
  });

  it("on a database only this process opens, a start takes back what a dead run left running", async () => {
    const kind = kindOf("orphan");
    const t0 = Date.now();
    await add(kind, {}, t0);
    const db = await getDb();
    await claimJobs(db, { kinds: [kind], limit: 1, now: t0, leaseMs: 60 * MINUTE, workerId: "dead" });
    expect((await jobsOf([kind]))[0]).toMatchObject({ status: "running", lockedBy: "dead:1" });
    // Without it, the job would wait out its hour-long lease.
    const w = await worker([{ kind, run: async () => ({ status: "done" }) }]);
    expect(await w.runDueJobs(t0)).toBe(0);
    expect(await releaseOrphanedJobs(db)).toBeGreaterThanOrEqual(1);
    expect((await jobsOf([kind]))[0]).toMatchObject({ status: "pending", lockedBy: null, attempts: 1 });
    expect(await w.runDueJobs(t0)).toBe(1);
    expect((await jobsOf([kind]))[0]).toMatchObject({ status: "done", attempts: 2 });
  });

  it("a stopping worker finishes what it holds within its grace, and hands back what it cannot finish", async () => {
    const quick = kindOf("quick");
    const stuck = kindOf("stuck");
    const hang = deferred();
    const started = deferred();
    let startedCount = 0;
    const onStart = () => {
      if (++startedCount === 2) started.resolve();
    };
    const w = await worker([
      { kind: quick, run: async () => (onStart(), await new Promise((r) => setTimeout(r, 50)), { status: "done" }) },
      { kind: stuck, run: async () => (onStart(), await hang.promise, { status: "done" }) },
    ]);
    await add(quick);
    await add(stuck);
    await w.start();
    await started.promise;
    const t = performance.now();
    await w.stop({ graceMs: 300 });
    expect(performance.now() - t).toBeLessThan(2_000);
    const [quickRow] = await jobsOf([quick]);
    const [stuckRow] = await jobsOf([stuck]);
    expect(quickRow).toMatchObject({ status: "done" });
    // Handed back: another worker takes it now rather than after its 60 s lease.
    expect(stuckRow).toMatchObject({ status: "pending", lockedBy: null, lockedUntil: null, attempts: 1 });
    const other = await worker([{ kind: stuck, run: async () => ({ status: "done" }) }]);
    expect(await other.runDueJobs()).toBe(1);
    // The first worker's handler finishing late settles nothing (the job is the other's), and the
    // stopped worker claims nothing more, though a job of its kind is due.
    const late = kindOf("late");
    await add(stuck, { late });
    hang.resolve();
    await new Promise((r) => setTimeout(r, 100));
    expect((await jobsOf([stuck])).map((j) => [j.status, j.attempts])).toEqual([
      ["done", 2],
      ["pending", 0],
    ]);
  });

  it("an idle worker looks at the table less and less often, and a wake-up looks at once", async () => {
    const kind = kindOf("idle");
    const db = await getDb();
    // Counts the worker's looks at the table: each claim is one prepared statement, sent on the
    // driver's client that runStatements finds on the database's session (and nothing else runs).
    let looks = 0;
    const counted = new Proxy(db, {
      get(target, property, receiver) {
        if (property === "session") looks += 1;
        return Reflect.get(target, property, receiver);
      },
    });
    const ran = deferred();
    const w = new JobWorker({ db: counted, handlers: [{ kind, run: async () => (ran.resolve(), { status: "done" }) }], pollMs: 10, maxIdlePollMs: 80 });
    // pollMs after a look that ran something, doubling with every empty look, capped.
    expect([0, 1, 2, 3, 4, 5, 9].map((empty) => w.idleWait(empty))).toEqual([10, 10, 20, 40, 80, 80, 80]);

    await w.start();
    try {
      await new Promise((r) => setTimeout(r, 1_000));
      // Every 10 ms would be ~100 looks in that second; backing off to 80 ms gives ~15.
      expect(looks).toBeGreaterThanOrEqual(3);
      expect(looks).toBeLessThanOrEqual(25);
      // A job committed by this process rings the worker, which runs it without waiting.
      await db.transaction((tx) => enqueueJobs(tx, [{ kind, payload: {} }]));
      w.wake();
      await ran.promise;
      await expect.poll(async () => (await jobsOf([kind]))[0]?.status).toBe("done");
    } finally {
      await w.stop();
    }
  });
  it("in a process that serves, claims nothing while a request is being answered, and goes on when the requests pause", async () => {
    const kind = kindOf("yields");
    const db = await getDb();
    // What server.mjs keeps: requests in flight, and who waits for them to be answered.
    const load = new TrafficLoad();
    load.begin();
    const ran = deferred();
    const w = new JobWorker({ db, handlers: [{ kind, run: async () => (ran.resolve(), { status: "done" }) }], yieldTo: load, maxYieldMs: 60_000 });
    await add(kind);
    const running = w.runDueJobs();
    await new Promise((r) => setTimeout(r, 300));
    expect((await jobsOf([kind]))[0]).toMatchObject({ status: "pending", attempts: 0 });
    load.end();
    await ran.promise;
    expect(await running).toBe(1);
    expect((await jobsOf([kind]))[0]).toMatchObject({ status: "done" });
  });

  it("under traffic that never pauses, the jobs still go, one claim every maxYieldMs", async () => {
    const kind = kindOf("starved");
    const db = await getDb();
    const load = new TrafficLoad();
    load.begin();
    const starts: number[] = [];
    const w = new JobWorker({ db, handlers: [{ kind, run: async () => (starts.push(performance.now()), { status: "done" }) }], yieldTo: load, maxYieldMs: 150, concurrency: 1 });
    for (let i = 0; i < 3; i++) await add(kind);
    const t0 = performance.now();
    expect(await w.runDueJobs()).toBe(3);
    // Each claim waited out its maxYieldMs first: the three jobs ran, spread out.
    expect(starts[0]! - t0).toBeGreaterThanOrEqual(140);
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(140);
    expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(140);
    expect((await jobsOf([kind])).map((j) => j.status)).toEqual(["done", "done", "done"]);
  });

  it("the process's request count (kept by server.mjs) is what the worker waits on", async () => {
    // As server.mjs drives it: the lifecycle object on globalThis counts requests and calls back at 0.
    const state = (globalThis as unknown as { __bookingLifecycle: { requests?: number; idle?: Array<() => void> } }).__bookingLifecycle ??= { draining: false, hooks: [] } as never;
    expect(requestLoad.busy()).toBe(false);
    await requestLoad.idle(60_000); // nothing in flight: at once
    state.requests = 1;
    try {
      expect(requestLoad.busy()).toBe(true);
      let resumed = false;
      const waiting = requestLoad.idle(60_000).then(() => (resumed = true));
      await new Promise((r) => setTimeout(r, 50));
      expect(resumed).toBe(false);
      state.requests = 0;
      for (const resume of state.idle!.splice(0)) resume();
      await waiting;
      // And a wait that times out leaves no callback behind.
      state.requests = 1;
      await requestLoad.idle(20);
      expect(state.idle).toEqual([]);
    } finally {
      state.requests = 0;
    }
  });
});
