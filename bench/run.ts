// `npm run bench` (run with tsx, which resolves the "@/" alias from tsconfig.json). Measures:
//
// 1. The slot engine alone: computeSlots (lib/slots) for 31 days with 500 busy intervals, a New
//    York host and a Berlin guest; mean, p50 and p99 per call over 2000 calls after warm-up.
//    Target: under 1 ms per call.
// 2. The real endpoint over HTTP: GET /api/v1/public/{username}/{slug}/slots for 7 days, served
//    by `npm start` (production build, fresh PGlite database in a temporary DATA_DIR, rate limits
//    off), seeded over the API with a host, weekday hours, an event type and a few bookings.
// 2d. A team's: GET /api/v1/public/teams/{teamSlug}/{slug}/slots for a round-robin event type of
//    10 hosts in five zones, seeded over the API; target within 3× of one host's req/s.
// 2b. The same endpoint for a second host with a Google calendar connected (through the OAuth
//    round trip, against tests/support/fake-google.ts) whose server then hangs, with a sync of
//    that calendar started before each of its measurements and waiting throughout: slot lists
//    must not notice.
// 3. The framework ceiling: bench/ceiling, a separate minimal Next.js app built with the same
//    Next.js, whose route returns the real response's body, pre-serialised, at the real route's
//    path (the same dynamic segments and query string: routing them is Next.js's work). It answers
//    what Next.js itself costs on this machine, so (2) can be read as a share of it. The same
//    body from a static path is measured too, for comparison.
// 3b. The same handler in an app with the service's whole route table (bench/.ceiling-routes,
//    generated from app/): Next.js routes a path through every dynamic route of the app, so the
//    same path costs it more in an app of the service's size. Information, no target: it tells
//    the framework's share of the gap from the service's.
//
// All servers are up together, each idle but for the one autocannon loads (32 connections, 2 s
// warm-up, then 8 s measured); BENCH_ROUNDS (5) rounds take every target in turn, and the figures
// are medians, each ratio the median of the rounds' own ratios (neighbours in time).
// Targets: real ≥ 85 % of the ceiling's req/s, p99 ≤ 1.2 × the ceiling's p99.
//
// Builds: the service is built with `next build` when .next/BUILD_ID is missing or older than a
// source file, the ceiling likewise; BENCH_BUILD=always forces both, BENCH_BUILD=never builds only what is missing.
// BENCH_DURATION (seconds), BENCH_ROUNDS and BENCH_CONNECTIONS override the load;
// BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" adds node flags to what `npm start`
// runs; BENCH_COMPARE_NODE_ARGS="--max-semi-space-size=16" runs a second service with those flags
// too, measured in the same rounds (an A/B in one run). BENCH_ONLY=slots stops after (2) and (3),
// one host's slots beside the ceiling, with neither 2b nor 2d: for repeating that comparison.
// 4. Booking creation on PostgreSQL beside pgbench running the same statements and beside Next.js
//    alone answering the same POSTs (bench/bookings.ts; skipped, with a message, when no
//    PostgreSQL is reachable).
// 4b. Booking creation for hosts with a connected calendar, fresh and stale, beside hosts without
//    one (bench/calendar-bookings.ts; PostgreSQL only, as 4).
// 4c. Growth (bench/growth.ts; only with BENCH_DATABASE_URL): slots, booking creation, the
//    bookings list (pages 1 and 500) and the outbox claim among a million bookings, beside an empty database.
// 5. The booking page in Debian's Chromium at 390 px (bench/booking-page.mts): first-load JS and
//    when the first bookable time is painted (skipped, with a message, without Chromium).
// 6. The booking page over HTTP (bench/pages.ts): a host's, a team's and an embedded page beside
//    Next.js alone answering the same bytes at the same path (bench/ceiling/pages.js), targets
//    ≥ 60 % and p99 ≤ 1.5×; the host's HTML size (≤ 60 KB for a month of 280+ open times); then a
//    crowd of 5,000 first visits within 10 s on new connections, on the service and the ceiling.
//    Run after (3)'s rounds, while its servers are up; BENCH_ONLY=pages runs it alone.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startFakeGoogle, type FakeGoogle } from "../tests/support/fake-google";
import { runBookingBench } from "./bookings";
import { runCalendarBookingBench } from "./calendar-bookings";
import { runEngineBench, runTeamEngineBench } from "./engine";
import { pageBytes, runPageBench, seedPageHost, type PageTarget } from "./pages";
import {
  buildCeilingIfNeeded,
  buildRoutesCeilingIfNeeded,
  buildServiceIfNeeded,
  call,
  expectOk,
  freePort,
  isoDate,
  loadNote,
  removeAtExit,
  ROOT,
  runMain,
  ROUTES_CEILING,
  say,
  startCeiling,
  startCommand,
  startServer,
  stopServer,
  table,
  waitFor200,
} from "./harness";

const DURATION = Number(process.env.BENCH_DURATION || 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 32);
const WARMUP = 2;

const HOST_ZONE = "America/New_York";
const GUEST_ZONE = "Europe/Berlin";

type LoadResult = { name: string; path: string; rps: number; p50: number; p99: number; non2xx: number; errors: number; bytes: number };

/** Seeds a host over the API and answers the slots path to measure. */
async function seed(base: string, tag = ""): Promise<{ slotsPath: string; bookings: number; auth: Record<string, string> }> {
  const username = `bench-${tag}${Date.now().toString(36)}`;
  const email = `${username}@example.com`;
  const password = "bench-password-123";
  await expectOk("register", call(base, "POST", "/api/v1/auth/register", { email, password, fullName: "Bench Host", username, timezone: HOST_ZONE }));
  const login = await expectOk("login", call(base, "POST", "/api/v1/auth/login", { email, password }));
  const auth = { authorization: `Bearer ${String(login.json().accessToken)}` };
  const weeklyRules = [1, 2, 3, 4, 5].map((dayOfWeek) => ({ dayOfWeek, startTime: "09:00", endTime: "17:00" }));
  await expectOk(
    "availability",
    call(base, "PUT", "/api/v1/me/availability", { timezone: HOST_ZONE, minNoticeHours: 0, maxAdvanceDays: 60, weeklyRules, dateOverrides: [] }, auth),
  );
  const slug = "intro-call";
  await expectOk(
    "event type",
    call(
      base,
      "POST",
      "/api/v1/me/event-types",
      { slug, title: "Intro call", durationMinutes: 30, bufferBeforeMinutes: 10, bufferAfterMinutes: 5, slotIntervalMinutes: 15 },
      auth,
    ),
  );
  const from = isoDate(Date.now() + 3 * 86_400_000);
  const to = isoDate(Date.now() + 9 * 86_400_000);
  const slotsPath = `/api/v1/public/${username}/${slug}/slots?from=${from}&to=${to}&timezone=${encodeURIComponent(GUEST_ZONE)}`;

  // A few bookings, so the measured query has busy data to load and subtract.
  let bookings = 0;
  const first = await call(base, "GET", slotsPath);
  if (first.status === 200) {
    const slots = (first.json().slots ?? []) as { startTime: string }[];
    const picks = [0.1, 0.25, 0.4, 0.55, 0.7, 0.85].map((f) => slots[Math.floor(f * slots.length)]).filter((s) => s !== undefined);
    for (const [i, slot] of picks.entries()) {
      const res = await call(
        base,
        "POST",
        `/api/v1/public/${username}/${slug}/bookings`,
        { startTime: slot.startTime, guestName: `Guest ${i}`, guestEmail: `guest${i}@example.com`, guestTimezone: GUEST_ZONE, customAnswers: {} },
        { "Idempotency-Key": randomUUID() },
      );
      if (res.status === 201 || res.status === 200) bookings++;
      else say(`  booking ${slot.startTime}: HTTP ${res.status} ${res.text.slice(0, 200)}`);
    }
  }
  return { slotsPath, bookings, auth };
}

const TEAM_ZONES = ["America/New_York", "Europe/Berlin", "Asia/Kolkata", "America/Los_Angeles", "Australia/Sydney"];

/**
 * Seeds a team of `size` hosts over the API, two in each of five zones, each with weekday hours
 * and a few bookings of their own, and a round-robin event type they all host; answers its public
 * slots path (7 days, the guest in Berlin).
 */
async function seedTeam(base: string, size = 10): Promise<{ slotsPath: string; pagePath: string }> {
  const tag = Date.now().toString(36);
  const hosts: { auth: Record<string, string>; username: string }[] = [];
  for (let i = 0; i < size; i++) {
    const username = `bench-t${i}-${tag}`;
    const password = "bench-password-123";
    const timezone = TEAM_ZONES[i % TEAM_ZONES.length]!;
    await expectOk("register", call(base, "POST", "/api/v1/auth/register", { email: `${username}@example.com`, password, fullName: `Rep ${i}`, username, timezone }));
    const login = await expectOk("login", call(base, "POST", "/api/v1/auth/login", { email: `${username}@example.com`, password }));
    const auth = { authorization: `Bearer ${String(login.json().accessToken)}` };
    const weeklyRules = [1, 2, 3, 4, 5].map((dayOfWeek) => ({ dayOfWeek, startTime: "09:00", endTime: "17:00" }));
    await expectOk("availability", call(base, "PUT", "/api/v1/me/availability", { timezone, minNoticeHours: 0, maxAdvanceDays: 60, weeklyRules, dateOverrides: [] }, auth));
    hosts.push({ auth, username });
  }
  const [owner, ...members] = hosts;
  const team = await expectOk("team", call(base, "POST", "/api/v1/me/teams", { slug: `bench-team-${tag}`, name: "Bench team" }, owner!.auth));
  const teamId = String(team.json().id);
  for (const m of members) {
    await expectOk("invite", call(base, "POST", `/api/v1/me/teams/${teamId}/members`, { username: m.username }, owner!.auth));
    await expectOk("accept", call(base, "POST", `/api/v1/me/teams/${teamId}/accept`, undefined, m.auth));
  }
  const slug = "demo";
  await expectOk(
    "team event type",
    call(base, "POST", `/api/v1/me/teams/${teamId}/event-types`, { slug, title: "Demo", durationMinutes: 30, bufferAfterMinutes: 5, slotIntervalMinutes: 15, schedulingType: "round_robin" }, owner!.auth),
  );
  const from = isoDate(Date.now() + 3 * 86_400_000);
  const to = isoDate(Date.now() + 9 * 86_400_000);
  const slotsPath = `/api/v1/public/teams/bench-team-${tag}/${slug}/slots?from=${from}&to=${to}&timezone=${encodeURIComponent(GUEST_ZONE)}`;
  // A few team bookings, so hosts have busy time to subtract.
  const first = await call(base, "GET", slotsPath);
  const slots = (first.json().slots ?? []) as { startTime: string }[];
  for (const [i, f] of [0.1, 0.3, 0.5, 0.7, 0.9].entries()) {
    const slot = slots[Math.floor(f * slots.length)];
    if (!slot) continue;
    await call(
      base,
      "POST",
      `/api/v1/public/teams/bench-team-${tag}/${slug}/bookings`,
      { startTime: slot.startTime, guestName: `Guest ${i}`, guestEmail: `team-guest${i}@example.com`, guestTimezone: GUEST_ZONE, customAnswers: {} },
      { "Idempotency-Key": randomUUID() },
    );
  }
  return { slotsPath, pagePath: `/team/bench-team-${tag}/${slug}` };
}

/**
 * Connects the host's Google calendar through the real OAuth round trip (the fake plays the
 * consent screen), with busy hours in it, then makes the provider hang. A sync started from now
 * on waits on it (up to CALENDAR_TIMEOUT_MS).
 */
async function connectHangingCalendar(base: string, auth: Record<string, string>, google: FakeGoogle): Promise<{ connectionId: string }> {
  // Busy every night at 07:00 UTC (02:00 in New York, outside the host's hours): stored and read
  // like any busy time, yet the answer keeps the same slots as the first host's, so the two
  // measurements serve bodies of the same size.
  for (let day = 3; day < 10; day += 1) {
    const start = new Date(Date.now() + day * 86_400_000);
    start.setUTCHours(7, 0, 0, 0);
    google.addEvent(google.email, { start, end: new Date(start.getTime() + 3_600_000) });
  }
  const authorize = await fetch(`${base}/api/v1/me/calendar-connections/oauth/provider_a/authorize`, { headers: auth, redirect: "manual" });
  if (authorize.status !== 302) throw new Error(`authorize: HTTP ${authorize.status} ${await authorize.text()}`);
  // The callback must come from the browser that asked (the state is bound to its nonce cookie).
  const nonce = authorize.headers.getSetCookie().map((c) => c.split(";")[0]!).join("; ");
  const callback = await fetch(await google.consent(authorize.headers.get("location")!), { redirect: "manual", headers: { cookie: nonce } });
  if (callback.status !== 302 || !callback.headers.get("location")?.includes("connected=")) throw new Error(`OAuth callback: HTTP ${callback.status} → ${callback.headers.get("location")}`);
  const list = await expectOk("connections", call(base, "GET", "/api/v1/me/calendar-connections", undefined, auth));
  const [connection] = list.json().data as { id: string; status: string }[];
  say(`  connected provider_a (${connection!.status}); now its server hangs and a sync waits on it`);
  google.behave({ kind: "hang" });
  return { connectionId: connection!.id };
}

async function load(name: string, url: string): Promise<LoadResult> {
  say(`  warm-up ${WARMUP} s, then ${DURATION} s with ${CONNECTIONS} connections: ${name}`);
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION });
  return {
    name,
    path: new URL(url).pathname,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    bytes: r.requests.total > 0 ? r.throughput.total / r.requests.total : 0,
  };
}

// --------------------------------------------------------------------------------------- main

async function main() {
  loadNote("at start");
  say("== 1. Slot engine: computeSlots, 31 days, 500 busy intervals, host America/New_York, guest Europe/Berlin");
  const engine = runEngineBench(2000, 500);
  say(
    `  ${engine.calls} calls (${engine.slots} slots each): mean ${engine.meanMs.toFixed(3)} ms, p50 ${engine.p50Ms.toFixed(3)} ms, ` +
      `p99 ${engine.p99Ms.toFixed(3)} ms, max ${engine.maxMs.toFixed(3)} ms  [target < 1 ms: ${engine.meanMs < 1 ? "met" : "MISSED"}]`,
  );
  say("== 1b. Team slots, round robin: 10 hosts in five zones, 500 busy intervals each, the same 31 days (beside one host above)");
  const team = runTeamEngineBench("round_robin");
  say(
    `  ${team.calls} calls (${team.slots} slots each): mean ${team.meanMs.toFixed(3)} ms, p99 ${team.p99Ms.toFixed(3)} ms ` +
      `(${(team.meanMs / engine.meanMs).toFixed(1)}× one host's mean)  [target < 5 ms: ${team.meanMs < 5 ? "met" : "MISSED"}]`,
  );

  say("\n== Builds");
  buildServiceIfNeeded();
  buildCeilingIfNeeded();
  buildRoutesCeilingIfNeeded();

  const work = mkdtempSync(path.join(tmpdir(), "booking-bench-"));
  removeAtExit(work);

  say("\n== 2. The service: npm start, fresh PGlite database");
  const realPort = await freePort();
  const realBase = `http://127.0.0.1:${realPort}`;
  const google = await startFakeGoogle();
  // BENCH_SERVER_NODE_ARGS runs what `npm start` runs with node flags, e.g. a CPU profile.
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean);
  const serviceEnv = (port: number, dataDir: string) => ({
    ...google.env,
    APP_URL: `http://127.0.0.1:${port}`,
    // As long as allowed: each round starts a sync that then hangs for all of its measurement.
    CALENDAR_TIMEOUT_MS: "120000",
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: path.join(work, dataDir),
    RATE_LIMITS: "off",
    LOG_LEVEL: "warn",
    NEXT_TELEMETRY_DISABLED: "1",
  });
  const [command, args] = startCommand(nodeArgs);
  const real = startServer("npm start", command, args, serviceEnv(realPort, "data"));
  await waitFor200(`${realBase}/api/v1/health`, real);
  const { slotsPath, bookings } = await seed(realBase);
  const sample = await call(realBase, "GET", slotsPath);
  say(`  seeded: 1 host, 1 event type, ${bookings} bookings; GET ${slotsPath} → HTTP ${sample.status}, ${Buffer.byteLength(sample.text)} bytes`);
  if (sample.status !== 200) throw new Error(`the slots endpoint does not answer 200 (${sample.text.slice(0, 200)})`);
  say(`  ${(sample.json().slots as unknown[]).length} slots in the response`);

  // BENCH_ONLY=slots: one host's slots beside the ceiling, nothing else (a run in ~2 minutes, for
  // repeating the p99 comparison).
  const slotsOnly = process.env.BENCH_ONLY === "slots";
  // BENCH_ONLY=pages: the booking pages beside their ceilings and the crowd (section 6), nothing else.
  const pagesOnly = process.env.BENCH_ONLY === "pages";
  say("\n== 2b. The same, for a host whose connected calendar's server hangs");
  let hanging: { path: string; sync: () => void } | undefined;
  if (slotsOnly || pagesOnly) say(`  SKIPPED (BENCH_ONLY=${process.env.BENCH_ONLY})`);
  else try {
    const second = await seed(realBase, "cal-");
    const { connectionId } = await connectHangingCalendar(realBase, second.auth, google);
    const sync = () => void call(realBase, "POST", `/api/v1/me/calendar-connections/${connectionId}/sync`, undefined, second.auth).catch(() => undefined);
    sync();
    const secondSample = await call(realBase, "GET", second.slotsPath);
    say(`  GET ${second.slotsPath} → HTTP ${secondSample.status}, ${(secondSample.json().slots as unknown[]).length} slots`);
    hanging = { path: second.slotsPath, sync };
  } catch (error) {
    say(`  not measured: ${error instanceof Error ? error.message : String(error)}`);
  }

  say("\n== 2d. Team slots over HTTP: a round-robin event type of 10 hosts in five zones (beside one host's above)");
  let teamTarget: { path: string; pagePath: string } | undefined;
  if (slotsOnly) say("  SKIPPED (BENCH_ONLY=slots)");
  else try {
    const seeded = await seedTeam(realBase);
    const teamSample = await call(realBase, "GET", seeded.slotsPath);
    say(`  GET ${seeded.slotsPath} → HTTP ${teamSample.status}, ${(teamSample.json().slots as unknown[]).length} slots, ${Buffer.byteLength(teamSample.text)} bytes`);
    if (teamSample.status === 200) teamTarget = { path: seeded.slotsPath, pagePath: seeded.pagePath };
  } catch (error) {
    say(`  not measured: ${error instanceof Error ? error.message : String(error)}`);
  }

  // BENCH_COMPARE_NODE_ARGS: the same service once more with other node flags (a heap setting,
  // say), seeded alike, measured in the same rounds: an A/B in one run.
  const compareArgs = process.env.BENCH_COMPARE_NODE_ARGS?.split(" ").filter(Boolean);
  let compare: { name: string; url: string; server: ReturnType<typeof startServer> } | undefined;
  if (compareArgs) {
    say(`\n== 2c. The same service with node ${compareArgs.join(" ")} (BENCH_COMPARE_NODE_ARGS)`);
    const port = await freePort();
    const [c, a] = startCommand([...(nodeArgs ?? []), ...compareArgs]);
    const server = startServer(`npm start ${compareArgs.join(" ")}`, c, a, serviceEnv(port, "data-compare"));
    await waitFor200(`http://127.0.0.1:${port}/api/v1/health`, server);
    const seeded = await seed(`http://127.0.0.1:${port}`, "cmp-");
    compare = { name: `real, node ${compareArgs.join(" ")}`, url: `http://127.0.0.1:${port}${seeded.slotsPath}`, server };
  }

  // The booking pages (section 6): a host whose page shows a month of 280+ open times, a team's, an embedded one.
  let pageTargets: PageTarget[] = [];
  let pageHost: Awaited<ReturnType<typeof seedPageHost>> | undefined;
  const pagesFile = path.join(work, "pages.json");
  if (!slotsOnly) {
    pageHost = await seedPageHost(realBase);
    pageTargets = [
      { name: "a host's", path: pageHost.path },
      ...(teamTarget ? [{ name: "a team's (10 hosts)", path: teamTarget.pagePath }] : []),
      { name: "embedded (?embed=1)", path: `${pageHost.path}?embed=1` },
    ];
    const bodies: Record<string, string> = {};
    for (const t of pageTargets) bodies[t.path] = await pageBytes(realBase, t.path);
    writeFileSync(pagesFile, JSON.stringify(bodies));
    say(`\n  booking pages: ${pageTargets.map((t) => `${t.path} (${Buffer.byteLength(bodies[t.path]!)} bytes)`).join(", ")}`);
    const html = bodies[pageHost.path]!;
    say(`  the host's page: ${Buffer.byteLength(html)} bytes of HTML for a month of ${pageHost.openTimes} open times  [target ≤ 60 KB: ${Buffer.byteLength(html) <= 60 * 1024 ? "met" : "MISSED"}]`);
  }

  say("\n== 3. The framework ceiling: bench/ceiling, same Next.js, same body, pre-serialised");
  const bodyFile = path.join(work, "body.json");
  writeFileSync(bodyFile, sample.text);
  const ceilingPort = await freePort();
  const ceilingBase = `http://127.0.0.1:${ceilingPort}`;
  // The ceiling's route sits at the real one's path, dynamic segments and query string included:
  // routing them is Next.js's work (a static path with no query is 15–21 % faster here), so it
  // belongs to the ceiling. The static route is measured too, for comparison.
  const ceilingPath = slotsPath;
  const ceiling = await startCeiling(ceilingPort, [ceilingPath, "/api/ceiling"], { CEILING_BODY_FILE: bodyFile, CEILING_PAGES_FILE: pagesFile });
  // The same handler in an app with the service's whole route table: what Next.js's routing of
  // this path costs in an app of this size (see ROUTES_CEILING in bench/harness.ts).
  const routesPort = await freePort();
  const routesBase = `http://127.0.0.1:${routesPort}`;
  const routesCeiling = await startCeiling(routesPort, [ceilingPath], { CEILING_BODY_FILE: bodyFile }, ROUTES_CEILING);

  // Both servers are up, idle but for the one being loaded: the rounds take turns, so a change
  // in the machine's pace falls on all of them alike, and each ratio compares neighbours in time.
  const targets = [
    { name: "real: GET …/slots (7 days)", url: realBase + slotsPath },
    ...(hanging ? [{ name: "real, calendar hanging: GET …/slots", url: realBase + hanging.path, before: hanging.sync }] : []),
    ...(teamTarget ? [{ name: "real, team of 10 (round robin): GET …/slots", url: realBase + teamTarget.path }] : []),
    ...(compare ? [{ name: compare.name, url: compare.url }] : []),
    { name: "ceiling: same path and query", url: ceilingBase + ceilingPath },
    { name: "ceiling, the service's route table: same path", url: routesBase + ceilingPath },
    { name: "ceiling: static path (/api/ceiling)", url: `${ceilingBase}/api/ceiling` },
  ];
  say(`\n== Load: ${ROUNDS} rounds, each target in turn: ${WARMUP} s warm-up, then ${DURATION} s with ${CONNECTIONS} connections`);
  const rounds: LoadResult[][] = [];
  for (let round = 0; round < (pagesOnly ? 0 : ROUNDS); round++) {
    const results: LoadResult[] = [];
    for (const target of targets) {
      target.before?.();
      results.push(await load(target.name, target.url));
    }
    say(`  round ${round + 1}: ${results.map((r) => `${r.rps.toFixed(0)} req/s p99 ${r.p99.toFixed(0)} ms`).join(" · ")}`);
    rounds.push(results);
  }
  if (pageHost) {
    say(`\n== 6. The booking page over HTTP: ${ROUNDS} rounds, each page then its ceiling (the same bytes at the same path)`);
    const eventTypes = (await expectOk("event types", call(realBase, "GET", "/api/v1/me/event-types", undefined, pageHost.auth))).json().data as { id: string }[];
    await runPageBench({
      service: realBase,
      ceiling: ceilingBase,
      pages: pageTargets,
      rounds: ROUNDS,
      load,
      // An edit of the event type: every kept copy of its page is retired.
      retire: async () => void (await expectOk("edit", call(realBase, "PATCH", `/api/v1/me/event-types/${eventTypes[0]!.id}`, { description: `Changed at ${new Date().toISOString()}` }, pageHost!.auth))),
    });
  }
  await stopServer(real, nodeArgs ? 60_000 : undefined); // a CPU profile takes a while to write
  await stopServer(ceiling);
  await stopServer(routesCeiling);
  if (compare) await stopServer(compare.server);
  await google.close();
  if (pagesOnly) return;

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
  const byTarget = targets.map((_, t) => rounds.map((results) => results[t]!));
  const ceilingIndex = targets.findIndex((t) => t.name.startsWith("ceiling: same"));
  say(`\n== Results (medians of ${ROUNDS} rounds; each ratio is the median of the rounds' own ratios)`);
  const rows = [["endpoint", "req/s", "p50 ms", "p99 ms", "non-2xx", "errors", "bytes/resp", "vs ceiling", "p99 vs ceiling's"]];
  const ratios = (t: number) => ({
    rps: median(rounds.map((results) => results[t]!.rps / results[ceilingIndex]!.rps)),
    p99: median(rounds.map((results) => results[t]!.p99 / results[ceilingIndex]!.p99)),
  });
  for (const [t, results] of byTarget.entries()) {
    const ratio = ratios(t);
    rows.push([
      targets[t]!.name,
      median(results.map((r) => r.rps)).toFixed(0),
      median(results.map((r) => r.p50)).toFixed(1),
      median(results.map((r) => r.p99)).toFixed(1),
      String(results.reduce((n, r) => n + r.non2xx, 0)),
      String(results.reduce((n, r) => n + r.errors, 0)),
      results[0]!.bytes.toFixed(0),
      `${(ratio.rps * 100).toFixed(0)} %`,
      `${ratio.p99.toFixed(2)}×`,
    ]);
  }
  table(rows);
  const real0 = ratios(0);
  say(
    `\nreal/ceiling: ${(real0.rps * 100).toFixed(1)} % [target ≥ 85 %: ${real0.rps >= 0.85 ? "met" : "MISSED"}]; ` +
      `p99 ${real0.p99.toFixed(2)}× the ceiling's [target ≤ 1.2×: ${real0.p99 <= 1.2 ? "met" : "MISSED"}]; ` +
      `engine mean ${engine.meanMs.toFixed(3)} ms/call [target < 1 ms: ${engine.meanMs < 1 ? "met" : "MISSED"}]`,
  );
  // How steady the machine was: the same ceiling, round against round. When it swings by more
  // than the targets' own margins (15 % of throughput, 20 % of p99), one run cannot tell a met
  // target from a missed one: say so beside the verdict, and show each round's own ratios.
  const ceilingRounds = byTarget[ceilingIndex]!;
  const range = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
  const swing = (values: number[]) => Math.max(...values) / Math.min(...values) - 1;
  const rpsSwing = swing(ceilingRounds.map((r) => r.rps));
  const p99Swing = swing(ceilingRounds.map((r) => r.p99));
  say(
    `steadiness: the ceiling read ${range(ceilingRounds.map((r) => r.rps))} req/s (swing ${(rpsSwing * 100).toFixed(0)} %) and p99 ` +
      `${range(ceilingRounds.map((r) => r.p99))} ms (swing ${(p99Swing * 100).toFixed(0)} %) across the rounds; real/ceiling by round: ` +
      rounds.map((results) => `${((results[0]!.rps / results[ceilingIndex]!.rps) * 100).toFixed(0)} %, p99 ${(results[0]!.p99 / results[ceilingIndex]!.p99).toFixed(2)}×`).join(" · ") +
      (rpsSwing > 0.15 || p99Swing > 0.2 ? " [UNSTEADY: the machine swung more than the targets' margins; repeat the run before reading a verdict]" : ""),
  );
  // How the gap divides: the framework's own routing of a large app, and the service's part.
  const routesIndex = targets.findIndex((t) => t.name.startsWith("ceiling, the service's route table"));
  const ofRoutes = (key: "rps" | "p99") => median(rounds.map((results) => results[0]![key] / results[routesIndex]![key]));
  say(
    `the route table alone: ${(ratios(routesIndex).rps * 100).toFixed(1)} % of the ceiling, p99 ${ratios(routesIndex).p99.toFixed(2)}×; ` +
      `real against it: ${(ofRoutes("rps") * 100).toFixed(1)} %, p99 ${ofRoutes("p99").toFixed(2)}× (information, no target)`,
  );
  if (teamTarget) {
    const t = targets.findIndex((x) => x.name.startsWith("real, team"));
    const share = median(rounds.map((results) => results[t]!.rps / results[0]!.rps));
    say(
      `team of 10 (round robin): ${(share * 100).toFixed(1)} % of one host's req/s, ${(1 / share).toFixed(2)}× fewer ` +
        `[target: within 3× of one host's: ${share >= 1 / 3 ? "met" : "MISSED"}]`,
    );
  }
  if (hanging) {
    const withHang = median(rounds.map((results) => results[1]!.rps / results[0]!.rps));
    const p99s = median(rounds.map((results) => results[1]!.p99 / results[0]!.p99));
    say(
      `with a hanging calendar: ${(withHang * 100).toFixed(1)} % of the req/s without one, p99 ${p99s.toFixed(2)}× ` +
        `[target: the same figures, within the rounds' spread]`,
    );
  }

  if (slotsOnly) return;
  // Booking creation needs PostgreSQL (and pgbench for its ceiling); it says so when it skips.
  say("\n== 4. Booking creation, PostgreSQL only (npm run bench:bookings runs this alone)");
  await runBookingBench({ build: false });

  // What a connected calendar costs a booking: nothing while its busy data is fresh; one
  // provider question (bounded by CALENDAR_CHECK_MS) when it is stale.
  say("\n== 4b. Booking creation with a connected calendar (npm run bench:calendar-bookings runs this alone)");
  await runCalendarBookingBench({ build: false });

  // Growth: the same host's figures on an empty and on a grown database (a million bookings);
  // PostgreSQL only, and only when asked for (seeding takes minutes). Its own process: the
  // outbox claim it times is the worker's server module (tsx --conditions=react-server).
  say("\n== 4c. Growth, PostgreSQL only (npm run bench:growth runs this alone)");
  if (!process.env.BENCH_DATABASE_URL) {
    say("  SKIPPED: set BENCH_DATABASE_URL to a PostgreSQL to measure growth");
  } else {
    const growth = spawnSync("npx", ["tsx", "--conditions=react-server", "bench/growth.ts"], { cwd: ROOT, stdio: "inherit" });
    if (growth.status !== 0) throw new Error(`bench/growth.ts failed (exit ${growth.status})`);
  }

  // The booking page in Chromium: its own script (npm run bench:page), skipped without a browser.
  say("\n== 5. The booking page in Chromium, as a first-time visitor on a phone (npm run bench:page runs this alone)");
  const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(chromiumPath)) {
    say(`  SKIPPED: no Chromium at ${chromiumPath} (Debian: apt-get install chromium; or set CHROMIUM_PATH)`);
  } else {
    const page = spawnSync("npx", ["tsx", "bench/booking-page.mts"], { cwd: ROOT, stdio: "inherit" });
    if (page.status !== 0) throw new Error(`bench/booking-page.mts failed (exit ${page.status})`);
  }
}

runMain(main);
