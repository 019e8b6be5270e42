// `npm run bench:growth`, and the growth section of `npm run bench` (PostgreSQL only): does the
// cost of a host's requests stay flat as the database grows?
//
// Two scratch databases beside BENCH_DATABASE_URL's: one empty, one grown with SQL
// generate_series (tests/support/growth.ts): 10,000 hosts, 1,000,000 bookings (900,000 of the
// crowd, 90 % of them past, and 100,000 past bookings of the measured host), 200,000 calendar
// busy intervals, 200,000 finished outbox rows and 5,000 webhook deliveries of the measured host.
// On each, `npm start` and the same measured host seeded over the API (UTC, open around the
// clock, a 30-minute event type); then, one request at a time: slots for 7 days (BENCH_GROWTH_N
// requests), as many bookings of distinct slots, the host's bookings list page 1 and page 500
// (limit 20), and the worker's outbox claim (lib/jobs/queue.ts, 10 due jobs among the rest).
// Each figure beside the empty database's, with the ratio. Target: every ratio ≤ 1.25×.
// Runs under `tsx --conditions=react-server` (the claim is the worker's own server module).
import { randomBytes, randomUUID } from "node:crypto";
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
type Figures = Record<string, { p50: number; p99: number }>;

/** `run` n times, one at a time; each takes its wall time, or the milliseconds it answers (its own part). */
async function timed(n: number, run: (i: number) => Promise<number | void>): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const own = await run(i);
    times.push(typeof own === "number" ? own : performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function measure(label: string, url: string, grow: boolean, work: string): Promise<Figures> {
  const database = await openPostgres(url, { max: 2 });
  await database.migrate();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const [command, args] = startCommand();
  const server = startServer(`npm start (${label})`, command, args, {
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: url,
    DATA_DIR: path.join(work, `data-${label}`),
    JWT_SECRET: randomBytes(48).toString("base64url"),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    RATE_LIMITS: "off",
    LOG_LEVEL: "warn",
    SHUTDOWN_DELAY_MS: "0",
    NEXT_TELEMETRY_DISABLED: "1",
  });
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await waitFor200(`${base}/api/v1/health`, server);
    const username = `growth-${Date.now().toString(36)}`;
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
          focus: { userId: ids!.user_id, eventTypeId: ids!.event_type_id, pastBookings: 100_000, webhookDeliveries: 5_000 },
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
    const from = isoDate(Date.now() + 2 * DAY);
    const to = isoDate(Date.now() + 8 * DAY);
    const figures: Figures = {};
    const slotsPath = `/api/v1/public/${username}/call/slots?from=${from}&to=${to}&timezone=UTC`;
    for (let i = 0; i < 20; i++) await expectOk("slots warm-up", call(base, "GET", slotsPath));
    figures.slots = await timed(N, async () => void (await expectOk("slots", call(base, "GET", slotsPath))));
    const slot0 = firstSlot() + 3 * DAY;
    const post = (i: number) =>
      expectOk(
        "booking",
        call(
          base,
          "POST",
          `/api/v1/public/${username}/call/bookings`,
          { startTime: new Date(slot0 + i * 30 * 60_000).toISOString(), guestName: "Guest", guestEmail: `guest-${i}@example.com`, guestTimezone: "UTC", customAnswers: {} },
          { "idempotency-key": randomUUID() },
        ),
      );
    for (let i = 0; i < 20; i++) await post(10_000 + i);
    figures["booking creation"] = await timed(N, async (i) => void (await post(i)));
    for (const page of [1, 500]) {
      const listPath = `/api/v1/me/bookings?page=${page}&limit=20`;
      for (let i = 0; i < 10; i++) await expectOk("list warm-up", call(base, "GET", listPath, undefined, host.auth));
      figures[`bookings list page ${page}`] = await timed(N, async () => void (await expectOk("list", call(base, "GET", listPath, undefined, host.auth))));
    }
    const kind = `bench.growth.${label}`;
    figures["outbox claim (10 jobs)"] = await timed(N, async () => {
      await sql`insert into outbox_jobs (kind, payload, run_after) select ${kind}, '{}'::jsonb, now() - interval '1 second' from generate_series(1, 10)`;
      const t = performance.now();
      const claimed = await claimJobs(database.db, { kinds: [kind], limit: 10, now: Date.now(), leaseMs: 60_000, workerId: "bench" });
      const spent = performance.now() - t;
      if (claimed.length !== 10) throw new Error(`outbox claim: ${claimed.length} of 10 jobs`);
      await sql`update outbox_jobs set status = 'done', finished_at = now() where kind = ${kind} and status = 'running'`;
      return spent;
    });
    return figures;
  } finally {
    await sql.end();
    await database.close();
    await stopServer(server);
  }
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
  const before = await measure("empty", empty.url, false, work);
  const after = await measure("grown", grown.url, true, work);
  loadNote("at the end");
  const rows = Object.keys(before).flatMap((what) =>
    (["p50", "p99"] as const).map((p) => {
      const a = before[what]![p];
      const b = after[what]![p];
      const ratio = b / a;
      return [`${what} ${p}`, a.toFixed(2), b.toFixed(2), `${ratio.toFixed(2)}×`, ratio <= 1.25 ? "met" : "MISSED"];
    }),
  );
  table([["what (ms, one request at a time)", "empty", "grown", "ratio", "≤ 1.25×"], ...rows]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runMain(runGrowthBench);
}
