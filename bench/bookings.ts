// `npm run bench:bookings`, and section 4 of `npm run bench`: booking creation on PostgreSQL.
//
// 1. A scratch database beside BENCH_DATABASE_URL's (else postgres://postgres@127.0.0.1:5432/postgres,
//    when something answers there); without a reachable PostgreSQL the section says so and skips.
// 2. `npm start` against it (DATABASE_URL, RATE_LIMITS=off, a fresh DATA_DIR), 16 hosts seeded over
//    the API (UTC, open all week around the clock, one 30-minute event type each).
// 3. 2,000 bookings of distinct slots, 32 at a time, through POST /api/v1/public/{username}/{slug}/bookings,
//    each with its own Idempotency-Key and guest email, sent by autocannon; booking i goes to host
//    i mod 16 at slot i (30-minute steps), so each host's bookings lie 8 hours apart. A warm-up
//    of 1,000 bookings on earlier slots runs first and is not counted (V8 compiles the server's
//    code meanwhile).
// 4. The same statements as raw SQL: pgbench runs bench/booking-transaction.sql (-M prepared,
//    32 clients, the same number of transactions rounded up to a multiple of 32, after the same
//    warm-up) on the same database, with hosts and distinct slots picked the same way, later on
//    the calendar so they never meet the API's.
// 5. Next.js alone: bench/ceiling's route at the same path takes the same requests, reads the
//    JSON body and answers 201 from a string, with no database: the framework's own pace for
//    this POST on this machine, which bounds the API's whatever the service does.
// All are printed side by side with the ratios. Target: the API ≥ 60 % of Next.js alone's pace
// in the same run (the framework is the floor of any route's cost); pgbench's pace is printed as
// what PostgreSQL itself allows, and beside the target the most any booking could reach on the
// machine: its cores over Next.js's, the load generator's and PostgreSQL's CPU for one booking.
// The API is measured twice in one run (BENCH_TOPOLOGY=both, the default): `npm start` alone,
// doing both (BENCH_TOPOLOGY=one), then served as docs/operations.md "Running in production" lays it out, a
// web process with WORKER=off beside one `nice -n 10 npm run worker` (BENCH_TOPOLOGY=split).
//
// BENCH_BOOKINGS (2000), BENCH_WARMUP (1000), BENCH_CONNECTIONS (32) and BENCH_HOSTS (16) change the load;
// BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" adds node flags to what `npm
// start` runs (the same server), here to write a CPU profile when it stops;
// BENCH_KEEP_DATABASE=1 keeps the scratch database for a look afterwards; BENCH_BASELINE_DIR=<a
// built checkout of another revision> loads that one too, first, on the same database, and runs
// its bench/booking-transaction.sql beside this one's: a before/after in one run.
import { spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import postgres from "postgres";
import { createScratchDatabase } from "../tests/support/scratch-database";
import { CpuMeter } from "./cpu";
import {
  buildCeilingIfNeeded,
  buildServiceIfNeeded,
  call,
  cleanUpAtExit,
  expectOk,
  freePort,
  loadNote,
  percentile,
  postgresServiceEnv,
  removeAtExit,
  ROOT,
  runMain,
  say,
  startCeiling,
  startCommand,
  startServer,
  stopServer,
  table,
  waitFor200,
} from "./harness";

const BOOKINGS = Number(process.env.BENCH_BOOKINGS || 2000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 32);
const HOSTS = Number(process.env.BENCH_HOSTS || 16);
// Next.js's server code runs slowly until V8 has compiled it: about a thousand requests.
const WARMUP = Number(process.env.BENCH_WARMUP || 1000);
const SLOT_MS = 30 * 60_000;
// The target: the API's pace as a share of Next.js alone's on the same POSTs.
const TARGET = 0.6;
const DAY = 86_400_000;
const SQL_FILE = path.join(ROOT, "bench", "booking-transaction.sql");
const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/postgres";

export type Pace = { name: string; done: number; failed: number; perSecond: number; p50: number; p99: number; cost?: Cost };

/** The PostgreSQL to bench on, or why there is none. */
export async function findPostgres(): Promise<{ url: string } | { skip: string }> {
  const url = process.env.BENCH_DATABASE_URL || DEFAULT_URL;
  const client = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await client`select 1`;
    return { url };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { skip: `no PostgreSQL answers at ${process.env.BENCH_DATABASE_URL ? "BENCH_DATABASE_URL" : DEFAULT_URL} (${why})` };
  } finally {
    await client.end({ timeout: 1 });
  }
}

function findPgbench(): string | undefined {
  const onPath = spawnSync("sh", ["-c", "command -v pgbench"], { encoding: "utf8" }).stdout.trim();
  if (onPath) return onPath;
  const lib = "/usr/lib/postgresql";
  if (!existsSync(lib)) return undefined;
  for (const version of readdirSync(lib).sort().reverse()) {
    const candidate = path.join(lib, version, "bin", "pgbench");
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Midnight UTC two days ahead: slot 0 of the bench, well past any notice. */
export function firstSlot(): number {
  return Math.floor(Date.now() / DAY) * DAY + 2 * DAY;
}

export type Host = { username: string; auth?: Record<string, string> };

/** A host with its availability and one event type, over the API. */
export async function seedHost(base: string, username: string): Promise<Host> {
  const email = `${username}@example.com`;
  const password = "bench-password-123";
  await expectOk("register", call(base, "POST", "/api/v1/auth/register", { email, password, fullName: "Bench Host", username, timezone: "UTC" }));
  const login = await expectOk("login", call(base, "POST", "/api/v1/auth/login", { email, password }));
  const auth = { authorization: `Bearer ${String(login.json().accessToken)}` };
  const weeklyRules = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: "00:00", endTime: "24:00" }));
  await expectOk(
    "availability",
    call(base, "PUT", "/api/v1/me/availability", { timezone: "UTC", minNoticeHours: 0, maxAdvanceDays: 365, weeklyRules, dateOverrides: [] }, auth),
  );
  await expectOk(
    "event type",
    call(base, "POST", "/api/v1/me/event-types", { slug: "call", title: "Call", durationMinutes: 30, slotIntervalMinutes: 30 }, auth),
  );
  return { username, auth };
}

/**
 * Books slots `from` … `from + count - 1` (slot i: host i mod hosts), `connections` requests in
 * flight at a time, with autocannon: a client much lighter than fetch, as pgbench is on the other
 * side, since both share the machine with what they measure.
 */
export async function book(base: string, hosts: Host[], run: string, slot0: number, from: number, count: number, name: string): Promise<Pace & { statuses: Map<number, number> }> {
  const statuses = new Map<number, number>();
  let next = from;
  const started = performance.now();
  // The pace runs to the last answer: autocannon resolves only at its next sample tick after it
  // (every second by default, which rounded every run up to whole seconds: 2,000 bookings in
  // 5.1 s read as 6.0 s). Ticks every 100 ms keep the CPU meters' window close to the run too.
  let lastAnswer = started;
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    amount: count,
    sampleInt: 100,
    requests: [
      {
        setupRequest: (request) => {
          const i = next++;
          const host = hosts[i % hosts.length]!;
          return {
            ...request,
            method: "POST",
            path: `/api/v1/public/${host.username}/call/bookings`,
            headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
            body: JSON.stringify({
              startTime: new Date(slot0 + i * SLOT_MS).toISOString(),
              guestName: `Guest ${i}`,
              guestEmail: `guest-${run}-${i}@example.com`,
              guestTimezone: "Europe/Berlin",
              customAnswers: {},
            }),
          };
        },
        onResponse: (status, body) => {
          lastAnswer = performance.now();
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status !== 201 && (statuses.get(status) ?? 0) <= 3) say(`  HTTP ${status} ${body.slice(0, 200)}`);
        },
      },
    ],
  });
  const seconds = (lastAnswer - started) / 1000;
  const done = statuses.get(201) ?? 0;
  return { name, done, failed: count - done, perSecond: done / seconds, p50: result.latency.p50, p99: result.latency.p99, statuses };
}

type PgbenchRun = { transactions: number; base: number; file: string };

/** What a run cost in CPU, per booking, by group (milliseconds), and how busy the machine was. */
type Cost = { perBooking: Record<string, number>; machineBusyCores: number; cores: number; ours: number };

function costOf(meter: CpuMeter | undefined, seconds: number, bookings: number): Cost | undefined {
  if (!meter) return undefined;
  const { groups, machineBusyCores, cores } = meter.stop(seconds);
  const perBooking = Object.fromEntries(Object.entries(groups).map(([group, cpu]) => [group, (cpu * 1000) / bookings]));
  return { perBooking, machineBusyCores, cores, ours: Object.values(groups).reduce((a, b) => a + b, 0) / seconds };
}

function sayCost(what: string, cost: Cost | undefined, names: Record<string, string>) {
  if (!cost) return;
  const parts = Object.entries(names).map(([group, label]) => `${label} ${(cost.perBooking[group] ?? 0).toFixed(2)} ms`);
  say(
    `  CPU per ${what}: ${parts.join(", ")}; the machine was busy ${cost.machineBusyCores.toFixed(2)} of ${cost.cores} cores, ` +
      `${cost.ours.toFixed(2)} of them for this`,
  );
}

/** Runs bench/booking-transaction.sql; the pace from pgbench's own tps, the latencies from its log. */
async function pgbench(binary: string, url: string, prefix: string, run: PgbenchRun, name: string, work: string): Promise<Pace> {
  const perClient = Math.ceil(run.transactions / CONNECTIONS);
  const logDir = mkdtempSync(path.join(work, "pgbench-"));
  const database = new URL(url).pathname.slice(1);
  const meter = CpuMeter.available()
    ? new CpuMeter((p) => (p.cmdline.startsWith("postgres: ") && p.cmdline.includes(` ${database} `) ? "postgres" : p.cmdline.includes(run.file) ? "pgbench" : undefined)).start()
    : undefined;
  const started = performance.now();
  const child = spawn(
    binary,
    [
      "--no-vacuum",
      "--protocol=prepared",
      `--client=${CONNECTIONS}`,
      "--jobs=2",
      `--transactions=${perClient}`,
      `--file=${run.file}`,
      `--define=prefix=${prefix}`,
      `--define=hosts=${HOSTS}`,
      `--define=clients=${CONNECTIONS}`,
      `--define=base=${Math.round(run.base / 1000)}`,
      "--define=n=0",
      "--log",
      `--log-prefix=${path.join(logDir, "tx")}`,
      url,
    ],
    { cwd: logDir },
  );
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const cost = costOf(meter, (performance.now() - started) / 1000, run.transactions);
  if (status !== 0) throw new Error(`pgbench failed (exit ${status}):\n${out}`);
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(out);
  const processed = /number of transactions actually processed: (\d+)/.exec(out);
  const failedLine = /number of failed transactions: (\d+)/.exec(out);
  if (!tps || !processed) throw new Error(`pgbench printed no tps:\n${out}`);
  // Per-transaction log lines: client_id transaction_no time_us script_no epoch_s epoch_us
  const latencies = readdirSync(logDir)
    .flatMap((file) => readFileSync(path.join(logDir, file), "utf8").split("\n"))
    .filter((line) => line.trim() !== "")
    .map((line) => Number(line.split(" ")[2]) / 1000)
    .sort((a, b) => a - b);
  return {
    name,
    done: Number(processed[1]),
    failed: Number(failedLine?.[1] ?? 0),
    perSecond: Number(tps[1]),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cost,
  };
}

/** Seconds until no outbox job is pending or running (the run's emails all sent), or undefined after 120 s. */
async function outboxDrained(url: string): Promise<number | undefined> {
  const db = postgres(url, { max: 1, onnotice: () => {} });
  const started = performance.now();
  try {
    while (performance.now() - started < 120_000) {
      const [row] = await db`select count(*)::int as n from outbox_jobs where status in ('pending', 'running') and run_after <= now()`;
      if (row!.n === 0) return (performance.now() - started) / 1000;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return undefined;
  } finally {
    await db.end({ timeout: 1 });
  }
}

/**
 * Next.js alone: the ceiling app's route at the bookings path takes the same requests, reads the
 * JSON body and answers 201 from a string, with no database. However little the service did,
 * its bookings could not come faster than this on this machine.
 */
async function nextAlone(hosts: Host[], run: string, slot0: number): Promise<Pace> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const ceiling = await startCeiling(port, ["/api/ceiling"]);
  try {
    say("  Next.js alone (bench/ceiling, the same POSTs, no database):");
    loadNote("before its run");
    await book(base, hosts, run, slot0, 0, WARMUP, "warm-up");
    const meter = CpuMeter.available() ? new CpuMeter((p) => (p.pgid === ceiling.pid ? "server" : undefined)).start() : undefined;
    const pace = await book(base, hosts, run, slot0, WARMUP, BOOKINGS, "ceiling: Next.js alone, same POST");
    pace.cost = costOf(meter, pace.done / pace.perSecond, BOOKINGS);
    sayCost("request", pace.cost, { server: "Next.js" });
    return pace;
  } finally {
    await stopServer(ceiling);
  }
}

/**
 * The most any booking could reach on this machine, printed beside the target: the machine's
 * cores over the CPU a booking costs before any work of its own. That is Next.js's for the same
 * request and the load generator's (both from the Next.js alone run), and PostgreSQL's for the
 * same statements (pgbench's run). Where PostgreSQL and the load generator share the cores with
 * the service, this bound can sit near the target itself.
 */
function sayFloor(framework: Pace, raw: Pace | undefined) {
  const alone = framework.cost;
  const database = raw?.cost?.perBooking.postgres;
  if (!alone || database === undefined) return;
  const parts = { "Next.js": alone.perBooking.server ?? 0, "the load generator": alone.perBooking.bench ?? 0, PostgreSQL: database };
  const floor = Object.values(parts).reduce((a, b) => a + b, 0);
  const most = (alone.cores * 1000) / floor;
  // What is left of the cores, per booking, for the booking's own work at the target's pace.
  const budget = (alone.cores * 1000) / (TARGET * framework.perSecond) - floor;
  say(
    `the most a booking could reach here: ${alone.cores} cores over ` +
      `${Object.entries(parts).map(([what, ms]) => `${what} ${ms.toFixed(2)} ms`).join(" + ")} = ${most.toFixed(0)}/s, ` +
      `${((most / framework.perSecond) * 100).toFixed(1)} % of Next.js alone, before any work of the booking's own; ` +
      `at ${TARGET * 100} % that work would have ${budget.toFixed(2)} ms of CPU (information, no target)`,
  );
}

/**
 * The booking section: prints its figures and the ratio, or why it was skipped. `build` is false
 * when the caller already built the service.
 */
export async function runBookingBench(options: { build: boolean } = { build: true }): Promise<{ api: Pace; pgbench?: Pace } | undefined> {
  say(`== Booking creation on PostgreSQL: ${BOOKINGS} bookings over ${HOSTS} hosts, ${CONNECTIONS} at a time, beside pgbench`);
  const found = await findPostgres();
  if ("skip" in found) {
    say(`  SKIPPED: ${found.skip}. Set BENCH_DATABASE_URL to a PostgreSQL server (a scratch database is made beside it) to run it.`);
    return undefined;
  }
  const pgbenchBinary = findPgbench();
  if (options.build) {
    buildServiceIfNeeded();
    buildCeilingIfNeeded();
  }

  const scratch = await createScratchDatabase(found.url);
  if (process.env.BENCH_KEEP_DATABASE) say(`  BENCH_KEEP_DATABASE: ${scratch.url} stays (drop it yourself)`);
  else cleanUpAtExit(scratch.drop);
  say(`  scratch database ${new URL(scratch.url).pathname.slice(1)} beside ${new URL(found.url).host}`);
  const work = mkdtempSync(path.join(tmpdir(), "booking-bench-pg-"));
  removeAtExit(work);

  const run = Date.now().toString(36);
  const prefix = `bk${run}`;
  const slot0 = firstSlot();
  const database = new URL(scratch.url).pathname.slice(1);
  // BENCH_SERVER_NODE_ARGS runs what `npm start` runs with node flags, e.g. a CPU profile.
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean);
  // BENCH_BASELINE_DIR: another built checkout (e.g. `git archive <rev> | tar -x`, then
  // `next build`), loaded first in the same run, on the same database, for a before/after.
  const baselineDir = process.env.BENCH_BASELINE_DIR ? path.resolve(process.env.BENCH_BASELINE_DIR) : undefined;
  // BENCH_TOPOLOGY: "split" serves with WORKER=off beside one `npm run worker`, as docs/operations.md
  // "Running in production" lays it out, so the outbox's fan-out and emails run off the request
  // thread; "one" is `npm start` alone doing both; "both" (the default) measures one, then split.
  const topology = process.env.BENCH_TOPOLOGY || "both";
  if (!["split", "one", "both"].includes(topology)) throw new Error(`BENCH_TOPOLOGY is split, one or both, not ${topology}`);
  const variants = topology === "both" ? [false, true] : [topology === "split"];
  const builds = [
    ...(baselineDir ? [{ label: "API baseline", dir: baselineDir, split: variants.at(-1)! }] : []),
    ...variants.map((split) => ({ label: split ? "API (web + worker)" : "API (one process)", dir: ROOT, split })),
  ];
  const paces: Pace[] = [];
  let hosts: Host[] = [];
  let booked = 0;
  for (const [k, { label, dir, split }] of builds.entries()) {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const [command, args] = startCommand(nodeArgs);
    const env = postgresServiceEnv(port, scratch.url, path.join(work, `data-${k}`));
    const server = startServer(`npm start (PostgreSQL${split ? ", WORKER=off" : ""}) in ${dir}`, command, args, split ? { ...env, WORKER: "off" } : env, dir);
    // BENCH_WORKER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" runs what `npm run worker` runs with those node flags.
    const workerArgs = process.env.BENCH_WORKER_NODE_ARGS?.split(" ").filter(Boolean);
    // The worker shares the two cores with the web process here, so it runs under `nice` (as
    // docs/operations.md "Running in production" advises for a worker beside web processes): a burst of
    // bookings is answered first, and its emails follow in the gaps (the drain time says how soon).
    const niceness = String(Number(process.env.BENCH_WORKER_NICE ?? 10));
    const worker = split
      ? startServer(
          `nice -n ${niceness} npm run worker in ${dir}`,
          "nice",
          ["-n", niceness, ...(workerArgs ? ["node", ...workerArgs, "server.mjs", "--worker"] : ["npm", "run", "worker"])],
          env,
          dir,
        )
      : undefined;
    await waitFor200(`${base}/api/v1/health`, server);
    if (k === 0) {
      hosts = await Promise.all(Array.from({ length: HOSTS }, (_, i) => seedHost(base, `${prefix}-h${i}`)));
      say(`  seeded ${HOSTS} hosts over the API (UTC, open around the clock, a 30-minute event type each)`);
    }
    // Each build books its own stretch of the calendar.
    const first = k * (WARMUP + BOOKINGS);
    say(`  ${label}${dir === ROOT ? "" : ` (${dir})`}:`);
    loadNote("before its run");
    const warm = await book(base, hosts, run, slot0, first, WARMUP, "warm-up");
    say(`  warm-up: ${warm.done}/${WARMUP} booked (${warm.perSecond.toFixed(0)}/s)`);
    const meter = CpuMeter.available()
      ? new CpuMeter((p) =>
          p.pgid === server.pid
            ? "server"
            : worker && p.pgid === worker.pid
              ? "worker"
              : p.cmdline.startsWith("postgres: ") && p.cmdline.includes(` ${database} `)
                ? "postgres"
                : undefined,
        ).start()
      : undefined;
    const api = await book(base, hosts, run, slot0, first + WARMUP, BOOKINGS, `${label}: POST …/bookings`);
    api.cost = costOf(meter, api.done / api.perSecond, BOOKINGS);
    const drained = await outboxDrained(scratch.url);
    say(`  the outbox emptied ${drained === undefined ? "not within 120 s" : `${drained.toFixed(1)} s`} after the last booking's answer (every email sent)`);
    const statuses = [...api.statuses].map(([s, n]) => `${n}×${s}`).join(", ");
    say(`  measured: ${statuses} in ${(api.done / api.perSecond).toFixed(1)} s`);
    sayCost(
      "booking",
      api.cost,
      split ? { server: "web (WORKER=off)", worker: "worker", postgres: "PostgreSQL" } : { server: "server (with its outbox worker)", postgres: "PostgreSQL" },
    );
    await stopServer(server, nodeArgs ? 120_000 : 5_000);
    if (worker) await stopServer(worker, workerArgs ? 120_000 : 5_000);
    booked += warm.done + api.done;
    paces.push(api);
  }
  const api = paces.at(-1)!;

  const framework = await nextAlone(hosts, run, slot0);

  const db = postgres(scratch.url, { max: 1, onnotice: () => {} });
  const count = async () => Number((await db`select count(*)::int as n from bookings`)[0]!.n);
  const apiRows = await count();
  say(`  bookings in the database after the API runs: ${apiRows} (expected ${booked})`);

  // The statements of each build: a baseline checkout's own bench/booking-transaction.sql, if it
  // has one, and this one's. Each API run is read against the statements it sends.
  const baselineSql = baselineDir && path.join(baselineDir, "bench", "booking-transaction.sql");
  const sqlRuns = [
    ...(baselineSql && existsSync(baselineSql) ? [{ label: "pgbench baseline", file: baselineSql }] : []),
    { label: "pgbench", file: SQL_FILE },
  ];
  const raws: Pace[] = [];
  if (!pgbenchBinary) {
    say("  pgbench SKIPPED: not installed (Debian: postgresql-contrib / postgresql-client)");
  } else {
    // Later on the calendar than the API's bookings, so the two never meet.
    let pgBase = slot0 + (Math.ceil((builds.length * (WARMUP + BOOKINGS) * SLOT_MS) / DAY) + 5) * DAY;
    const stretch = Math.ceil((WARMUP + BOOKINGS) / CONNECTIONS + 2) * CONNECTIONS * SLOT_MS;
    for (const { label, file } of sqlRuns) {
      say(`  ${label}: ${path.relative(ROOT, file) || file}`);
      loadNote("before its run");
      await pgbench(pgbenchBinary, scratch.url, prefix, { transactions: WARMUP, base: pgBase, file }, "warm-up", work);
      const measured = await pgbench(
        pgbenchBinary,
        scratch.url,
        prefix,
        { transactions: BOOKINGS, base: pgBase + Math.ceil(WARMUP / CONNECTIONS + 1) * CONNECTIONS * SLOT_MS, file },
        `${label}: ${path.basename(file)}`,
        work,
      );
      sayCost("transaction", measured.cost, { postgres: "PostgreSQL", pgbench: "pgbench" });
      raws.push(measured);
      pgBase += stretch;
    }
    say(`  bookings in the database after pgbench: ${await count()} (pgbench added ${(await count()) - apiRows})`);
  }
  await db.end({ timeout: 1 });

  say("");
  // A baseline API run is read against the baseline's statements when there are two pgbench runs.
  const against = (i: number) => raws[Math.min(i, raws.length - 1)];
  const row = (r: Pace, raw: Pace | undefined) => [
    r.name,
    String(r.done),
    String(r.failed),
    r.perSecond.toFixed(1),
    r.p50.toFixed(1),
    r.p99.toFixed(1),
    raw ? `${((r.perSecond / raw.perSecond) * 100).toFixed(0)} %` : "-",
  ];
  const raw = raws.at(-1);
  table([
    ["what", "done", "failed", "per second", "p50 ms", "p99 ms", "vs its pgbench"],
    ...paces.map((r, i) => row(r, against(raws.length > 1 ? i : 0))),
    ...raws.map((r) => row(r, r)),
    row(framework, raw),
  ]);
  if (raw) {
    const ratio = api.perSecond / raw.perSecond;
    say(`\nAPI/pgbench: ${(ratio * 100).toFixed(1)} % (what PostgreSQL alone allows; not a target)`);
  }
  sayFloor(framework, raw);
  const next = framework.cost?.perBooking.server;
  for (const run of paces) {
    const share = run.perSecond / framework.perSecond;
    const server = run.cost?.perBooking.server;
    say(
      `${run.name} / Next.js alone: ${(share * 100).toFixed(1)} % [target ≥ ${TARGET * 100} %: ${share >= TARGET ? "met" : "MISSED"}]` +
        (server !== undefined && next !== undefined
          ? `; request-thread CPU per booking ${server.toFixed(2)} ms, of which Next.js alone needs ${next.toFixed(2)} ms for the same request`
          : ""),
    );
  }
  return { api, pgbench: raw };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runMain(async () => {
    loadNote("at start");
    await runBookingBench();
  });
}
