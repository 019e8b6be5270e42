// `npm run bench:growth`, and the growth section of `npm run bench` (PostgreSQL only): does the
// cost of a host's requests stay flat as the database grows?
//
// Two scratch databases beside BENCH_DATABASE_URL's: one empty, one grown with SQL
// generate_series (tests/support/growth.ts): 10,000 hosts, 1,000,000 bookings (900,000 of the
// crowd, 90 % of them past, and 100,000 past bookings of the measured host), 200,000 calendar
// busy intervals, 200,000 finished outbox rows and 5,000 webhook deliveries of the measured host;
// among its past, 1,000 seated starts of 2–5 guests each and 200 weekly series of 8 (decisions §19),
// which its bookings list reads (seat_counts, bookings_series_idx).
// On each, `npm start` and the same measured host seeded over the API (UTC, open around the
// clock, a 30-minute event type); then, one request at a time, alternating between the two
// databases (so a busy moment of the machine lands on both sides alike), each after a warm-up:
// slots for 7 days (BENCH_GROWTH_N requests a side), as many bookings of distinct slots, the
// host's bookings list page 1 and page 500 (limit 20), and the worker's outbox claim
// (lib/jobs/queue.ts, 10 due jobs among the rest).
// Each figure beside the empty database's, with the ratio. Target: every ratio ≤ 1.25×.
// Then the host's insights for a year (GET /me/insights, the 366 days to yesterday: ~4,400 of
// its bookings on the empty side, ~7,500 on the grown one, among its 100,000), median and p95
// beside the empty database's and the ceiling: under 200 ms on the grown one.
// Runs under `tsx --conditions=react-server` (the claim is the worker's own server module).
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import postgres from "postgres";
import { openPostgres } from "../db/client";
import { claimJobs } from "../lib/jobs/queue";
import { seedGrowth } from "../tests/support/growth";
import { createScratchDatabase } from "../tests/support/scratch-database";
import { findPostgres, firstSlot, seedHost } from "./bookings";
import {
  buildServiceIfNeeded,
  call,
  cleanUpAtExit,
  expectOk,
  freePort,
  isoDate,
  loadNote,
  percentile,
  postgresServiceEnv,
  removeAtExit,
  runMain,
  say,
  startCommand,
  startServer,
  stopServer,
  table,
  waitFor200,
} from "./harness";

const N = Number(process.env.BENCH_GROWTH_N || 200);
const DAY = 86_400_000;
const INSIGHTS_CEILING_MS = 200;
const INSIGHTS = "insights, a year";
type Figures = Record<string, { p50: number; p95: number; p99: number }>;

/** What one side needs for its requests: its server, its measured host, its database. */
type Side = {
  label: string;
  base: string;
  username: string;
  auth: Record<string, string> | undefined;
  sql: postgres.Sql;
  database: Awaited<ReturnType<typeof openPostgres>>;
  stop: () => Promise<void>;
};

/** A database (grown or not) with `npm start` on it and the measured host seeded over the API. */
async function prepare(label: string, url: string, grow: boolean, work: string): Promise<Side> {
  const database = await openPostgres(url, { max: 2 });
  await database.migrate();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const [command, args] = startCommand();
  const server = startServer(`npm start (${label})`, command, args, postgresServiceEnv(port, url, path.join(work, `data-${label}`)));
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const stop = async () => {
    await sql.end();
    await database.close();
    await stopServer(server);
  };
  try {
    await waitFor200(`${base}/api/v1/health`, server);
    const username = `growth-${label}-${Date.now().toString(36)}`;
    const host = await seedHost(base, username);
    const [ids] = await sql<{ user_id: string; event_type_id: string }[]>`
      select u.id as user_id, e.id as event_type_id from users u join event_types e on e.user_id = u.id and e.slug = 'call' where u.username = ${username}`;
    if (grow) {
      const t = performance.now();
      await seedGrowth(
        sql,
        {
          hosts: 10_000,
          bookings: 900_000,
          busyIntervals: 200_000,
          outboxJobs: 200_000,
          focus: { userId: ids!.user_id, eventTypeId: ids!.event_type_id, pastBookings: 100_000, webhookDeliveries: 5_000, seatedStarts: 1_000, series: 200 },
        },
        say,
      );
      say(`  grew the database in ${((performance.now() - t) / 1000).toFixed(0)} s`);
    } else {
      // The same host with a short past of its own: page 500 exists on both databases.
      await sql`
        insert into bookings (id, host_id, event_type_id, status, start_time, end_time, blocked_start, blocked_end,
          guest_name, guest_email, guest_timezone, cancel_token_hash)
        select 'past_' || k, ${ids!.user_id}, ${ids!.event_type_id}, 'confirmed', t, t + interval '30 minutes', t, t + interval '30 minutes',
          'Guest', 'g' || k || '@example.com', 'UTC', 'past_tok_' || k
        from generate_series(1, 10020) k, lateral (select date_trunc('hour', now()) - interval '1 day' - k * interval '2 hours' as t) s`;
      // As the grown database (tests/support/growth.ts): vacuumed, as autovacuum would.
      await sql`vacuum analyze`;
    }
    return { label, base, username, auth: host.auth, sql, database, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * One figure on both sides, in alternation (empty, grown, empty, …), one request at a time: both
 * see the machine at the same moments, so a busy spell lands on both, not on one side's figures.
 * `run` takes its wall time, or answers the milliseconds of its own part.
 */
async function alternate(sides: Side[], n: number, run: (side: Side, i: number) => Promise<number | void>): Promise<{ p50: number; p95: number; p99: number }[]> {
  const times = sides.map(() => [] as number[]);
  for (let i = 0; i < n; i++) {
    for (const [k, side] of sides.entries()) {
      const t = performance.now();
      const own = await run(side, i);
      times[k]!.push(typeof own === "number" ? own : performance.now() - t);
    }
  }
  return times.map((list) => {
    list.sort((a, b) => a - b);
    return { p50: percentile(list, 50), p95: percentile(list, 95), p99: percentile(list, 99) };
  });
}

/** Every figure on both sides, after its warm-up (V8 compiling the path, the caches filling). */
async function measure(sides: Side[]): Promise<Figures[]> {
  const figures: Figures[] = sides.map(() => ({}));
  const record = async (what: string, warmUp: number, run: (side: Side, i: number) => Promise<number | void>) => {
    await alternate(sides, warmUp, run);
    const results = await alternate(sides, N, run);
    results.forEach((r, k) => (figures[k]![what] = r));
  };
  const from = isoDate(Date.now() + 2 * DAY);
  const to = isoDate(Date.now() + 8 * DAY);
  const slotsPath = (side: Side) => `/api/v1/public/${side.username}/call/slots?from=${from}&to=${to}&timezone=UTC`;
  await record("slots", 20, async (side) => void (await expectOk("slots", call(side.base, "GET", slotsPath(side)))));
  const slot0 = firstSlot() + 3 * DAY;
  // The warm-up books slots far from the measured ones (10,000 on).
  let offset = 10_000;
  const post = (side: Side, i: number) =>
    expectOk(
      "booking",
      call(
        side.base,
        "POST",
        `/api/v1/public/${side.username}/call/bookings`,
        { startTime: new Date(slot0 + (offset + i) * 30 * 60_000).toISOString(), guestName: "Guest", guestEmail: `guest-${offset + i}@example.com`, guestTimezone: "UTC", customAnswers: {} },
        { "idempotency-key": randomUUID() },
      ),
    );
  await alternate(sides, 20, async (side, i) => void (await post(side, i)));
  offset = 0;
  const booked = await alternate(sides, N, async (side, i) => void (await post(side, i)));
  booked.forEach((r, k) => (figures[k]!["booking creation"] = r));
  for (const page of [1, 500]) {
    const listPath = `/api/v1/me/bookings?page=${page}&limit=20`;
    await record(`bookings list page ${page}`, 10, async (side) => void (await expectOk("list", call(side.base, "GET", listPath, undefined, side.auth))));
  }
  const year = `/api/v1/me/insights?from=${isoDate(Date.now() - 366 * DAY)}&to=${isoDate(Date.now() - DAY)}`;
  await record(INSIGHTS, 10, async (side) => void (await expectOk("insights", call(side.base, "GET", year, undefined, side.auth))));
  await record("outbox claim (10 jobs)", 10, async (side) => {
    const kind = `bench.growth.${side.label}`;
    await side.sql`insert into outbox_jobs (kind, payload, run_after) select ${kind}, '{}'::jsonb, now() - interval '1 second' from generate_series(1, 10)`;
    const t = performance.now();
    const claimed = await claimJobs(side.database.db, { kinds: [kind], limit: 10, now: Date.now(), leaseMs: 60_000, workerId: "bench" });
    const spent = performance.now() - t;
    if (claimed.length !== 10) throw new Error(`outbox claim: ${claimed.length} of 10 jobs`);
    await side.sql`update outbox_jobs set status = 'done', finished_at = now() where kind = ${kind} and status = 'running'`;
    return spent;
  });
  return figures;
}

export async function runGrowthBench(): Promise<void> {
  say("\n## Growth: the measured host on an empty database and among 10,000 hosts and 1,000,000 bookings (PostgreSQL)");
  const found = await findPostgres();
  if ("skip" in found) {
    say(`  skipped: ${found.skip}`);
    return;
  }
  buildServiceIfNeeded();
  const work = mkdtempSync(path.join(tmpdir(), "bench-growth-"));
  removeAtExit(work);
  const empty = await createScratchDatabase(found.url);
  cleanUpAtExit(empty.drop);
  const grown = await createScratchDatabase(found.url);
  cleanUpAtExit(grown.drop);
  loadNote("at start");
  const sides: Side[] = [];
  let before: Figures;
  let after: Figures;
  try {
    sides.push(await prepare("empty", empty.url, false, work));
    sides.push(await prepare("grown", grown.url, true, work));
    loadNote("before measuring");
    [before, after] = (await measure(sides)) as [Figures, Figures];
  } finally {
    for (const side of sides) await side.stop();
  }
  loadNote("at the end");
  const rows = Object.keys(before).filter((what) => what !== INSIGHTS).flatMap((what) =>
    (["p50", "p99"] as const).map((p) => {
      const a = before[what]![p];
      const b = after[what]![p];
      const ratio = b / a;
      return [`${what} ${p}`, a.toFixed(2), b.toFixed(2), `${ratio.toFixed(2)}×`, ratio <= 1.25 ? "met" : "MISSED"];
    }),
  );
  table([["what (ms, one request at a time)", "empty", "grown", "ratio", "≤ 1.25×"], ...rows]);
  // The insights read what the range holds, not a page: a ceiling of their own (issue #44).
  const insights = (["p50", "p95"] as const).map((p) => {
    const grownMs = after[INSIGHTS]![p];
    return [`${INSIGHTS} ${p}`, before[INSIGHTS]![p].toFixed(2), grownMs.toFixed(2), `${INSIGHTS_CEILING_MS}`, grownMs < INSIGHTS_CEILING_MS ? "met" : "MISSED"];
  });
  say("");
  table([["what (ms, one request at a time)", "empty", "grown", "ceiling", "< ceiling"], ...insights]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runMain(runGrowthBench);
}
