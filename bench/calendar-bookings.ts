// `npm run bench:calendar-bookings`, and section 4b of `npm run bench`: what a connected calendar
// costs a booking (decisions §17, the check at booking), on PostgreSQL.
//
// 1. A scratch database beside BENCH_DATABASE_URL's (as section 4; skipped without PostgreSQL) and
//    the Google fake (tests/support/fake-google.ts) in this process, playing the provider.
// 2. `npm start` with CALENDAR_FRESH_S=3600; BENCH_HOSTS (8) hosts without a calendar and as many
//    whose Google calendar is connected through the real OAuth round trip (three calendars, all
//    checking conflicts, just synced). A warm-up of BENCH_WARMUP bookings, then BENCH_BOOKINGS
//    bookings for the hosts without a calendar ("none") and as many for those with one ("fresh":
//    busy data younger than CALENDAR_FRESH_S, so no provider is asked).
// 3. The server again with CALENDAR_FRESH_S=0: after the same warm-up, BENCH_BOOKINGS bookings for
//    the hosts with a calendar ("stale": each booking asks the fake's freeBusy about its range
//    before taking its locks).
// Printed in the table style of section 4.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { startFakeGoogle, type FakeGoogle } from "../tests/support/fake-google";
import { createScratchDatabase } from "../tests/support/scratch-database";
import { book, findPostgres, firstSlot, seedHost, type Host, type Pace } from "./bookings";
import { buildServiceIfNeeded, call, cleanUpAtExit, expectOk, freePort, loadNote, removeAtExit, runMain, say, startCommand, startServer, stopServer, table, waitFor200 } from "./harness";

const BOOKINGS = Number(process.env.BENCH_BOOKINGS || 1000);
const WARMUP = Number(process.env.BENCH_WARMUP || 1000);
const HOSTS = Number(process.env.BENCH_HOSTS || 8);

/** The host's Google calendar, connected as a browser would (authorize → the fake's consent → callback). */
async function connectGoogle(base: string, host: Host, google: FakeGoogle): Promise<void> {
  const authorize = await fetch(`${base}/api/v1/me/calendar-connections/oauth/provider_a/authorize`, { headers: host.auth, redirect: "manual" });
  if (authorize.status !== 302) throw new Error(`authorize: HTTP ${authorize.status} ${await authorize.text()}`);
  const nonce = authorize.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
  const callback = await fetch(await google.consent(authorize.headers.get("location")!), { redirect: "manual", headers: { cookie: nonce } });
  if (!callback.headers.get("location")?.includes("connected=")) throw new Error(`OAuth callback: HTTP ${callback.status} → ${callback.headers.get("location")}`);
  const list = await expectOk("connections", call(base, "GET", "/api/v1/me/calendar-connections", undefined, host.auth));
  const [connection] = list.json().data as { status: string; busyAsOf: string | null }[];
  if (connection?.status !== "connected" || !connection.busyAsOf) throw new Error(`the connection is not synced: ${JSON.stringify(connection)}`);
}

export async function runCalendarBookingBench(options: { build: boolean } = { build: true }): Promise<void> {
  say(`== Booking creation with a connected calendar: ${BOOKINGS} bookings each for ${HOSTS} hosts without one, with a fresh one, with a stale one`);
  const found = await findPostgres();
  if ("skip" in found) {
    say(`  SKIPPED: ${found.skip}. Set BENCH_DATABASE_URL to a PostgreSQL server to run it.`);
    return;
  }
  if (options.build) buildServiceIfNeeded();
  const scratch = await createScratchDatabase(found.url);
  cleanUpAtExit(scratch.drop);
  const work = mkdtempSync(path.join(tmpdir(), "calendar-booking-bench-"));
  removeAtExit(work);
  const google = await startFakeGoogle();
  const run = Date.now().toString(36);
  const slot0 = firstSlot();
  const secrets = { JWT_SECRET: randomBytes(48).toString("base64url"), ENCRYPTION_KEY: randomBytes(32).toString("base64") };

  async function withServer<T>(freshSeconds: number, work_: (base: string) => Promise<T>): Promise<T> {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const [command, args] = startCommand(undefined);
    const server = startServer(`npm start (CALENDAR_FRESH_S=${freshSeconds})`, command, args, {
      ...google.env,
      ...secrets,
      APP_URL: base,
      CALENDAR_FRESH_S: String(freshSeconds),
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: scratch.url,
      DATA_DIR: path.join(work, `data-${freshSeconds}`),
      RATE_LIMITS: "off",
      LOG_LEVEL: "warn",
      SHUTDOWN_DELAY_MS: "0",
      NEXT_TELEMETRY_DISABLED: "1",
    });
    try {
      await waitFor200(`${base}/api/v1/health`, server);
      return await work_(base);
    } finally {
      await stopServer(server);
    }
  }

  const paces: Pace[] = [];
  let plain: Host[] = [];
  let withCalendar: Host[] = [];
  const measure = async (base: string, hosts: Host[], from: number, name: string) => {
    const pace = await book(base, hosts, run, slot0, from, BOOKINGS, name);
    say(`  ${name}: ${[...pace.statuses].map(([s, n]) => `${n}×${s}`).join(", ")}`);
    paces.push(pace);
  };
  try {
    await withServer(3600, async (base) => {
      plain = await Promise.all(Array.from({ length: HOSTS }, (_, i) => seedHost(base, `cb${run}-p${i}`)));
      withCalendar = await Promise.all(Array.from({ length: HOSTS }, (_, i) => seedHost(base, `cb${run}-c${i}`)));
      for (const host of withCalendar) await connectGoogle(base, host, google);
      say(`  seeded ${HOSTS} hosts without a calendar and ${HOSTS} with Google connected (the fake, ${google.calendars.length} calendars checking conflicts)`);
      loadNote("before the runs");
      await book(base, plain, run, slot0, 0, WARMUP, "warm-up");
      await measure(base, plain, WARMUP, "no calendar");
      const asked = google.requests.length;
      await measure(base, withCalendar, 0, "calendar, fresh (no provider call)");
      say(`  provider requests during the fresh run: ${google.requests.length - asked}`);
    });
    await withServer(0, async (base) => {
      await book(base, plain, run, slot0, WARMUP + BOOKINGS, WARMUP, "warm-up");
      const asked = google.requests.filter((r) => r.path.endsWith("/freeBusy")).length;
      await measure(base, withCalendar, BOOKINGS, "calendar, stale (asks the provider)");
      say(`  freeBusy requests during the stale run: ${google.requests.filter((r) => r.path.endsWith("/freeBusy")).length - asked}`);
    });
  } finally {
    await google.close();
  }
  say("");
  const none = paces[0]!;
  table([
    ["what", "done", "failed", "per second", "p50 ms", "p99 ms", "vs no calendar"],
    ...paces.map((r) => [r.name, String(r.done), String(r.failed), r.perSecond.toFixed(1), r.p50.toFixed(1), r.p99.toFixed(1), `${((r.perSecond / none.perSecond) * 100).toFixed(0)} %`]),
  ]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runMain(async () => {
    loadNote("at start");
    await runCalendarBookingBench();
  });
}
