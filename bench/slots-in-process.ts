// `npm run bench:slots`: the public slot list of a personal event type in this process, without
// HTTP or a browser, on an in-memory PGlite: what the service itself costs per request.
// Runs under `tsx --conditions=react-server` (the services are server modules).
//
// Three modes, BENCH_SLOTS_N (1000) calls each after 100 of warm-up, per-call median and p99:
//   warm      the same question again: the kept response (lookup hit, response hit);
//   computed  a new question each time (dates and zone vary): lookup and schedule hits, the engine runs;
//   cold      every entry of the host dropped before each call (invalidateHost): the lookup and the
//             schedule are read from the database, then the engine runs.
// BENCH_SLOTS_ROUNDS (5) rounds; the figures are the medians of the rounds' medians (the machine is shared).
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openPglite } from "../db/client";
import { availabilityRules, eventTypes, schedules, users } from "../db/schema";
import { parseConfig, setConfig } from "../lib/config";
import { setDatabase } from "../lib/store/database";
import { invalidateHost } from "@/lib/services/host-time/cache";
import { listPublicSlotsJson } from "@/lib/services/bookable/slots";
import type { Db } from "../db";

const N = Number(process.env.BENCH_SLOTS_N || 1000);
const ROUNDS = Number(process.env.BENCH_SLOTS_ROUNDS || 5);
const WARMUP = 100;
const DAY = 86_400_000;

type Host = { id: string; username: string; slug: string };

/** A New York host, Monday–Friday 09:00–17:00 in their default schedule, a 30-minute event type. */
async function seed(db: Db): Promise<Host> {
  const id = randomUUID();
  const username = `bench-${id.slice(0, 8)}`;
  await db.insert(users).values({ id, email: `${username}@example.com`, passwordHash: "x", fullName: "Bench Host", username, timezone: "America/New_York" });
  const scheduleId = randomUUID();
  await db.insert(schedules).values({ id: scheduleId, userId: id, name: "Working hours", isDefault: true });
  await db.insert(availabilityRules).values([1, 2, 3, 4, 5].map((dayOfWeek) => ({ userId: id, scheduleId, dayOfWeek, startMinute: 540, endMinute: 1020 })));
  await db.insert(eventTypes).values({ id: randomUUID(), userId: id, slug: "intro", title: "Intro call", durationMinutes: 30, slotIntervalMinutes: 15 });
  return { id, username, slug: "intro" };
}

const date = (at: number) => new Date(at).toISOString().slice(0, 10);

// Every zone this runtime knows: with 50 start dates, over 20,000 distinct questions.
const ZONES = Intl.supportedValuesOf("timeZone");

/** The k-th question: a distinct one for each k (dates and zone), or (`same`) always the first. */
function query(k: number, same: boolean) {
  const at = same ? 0 : k;
  const from = Date.now() + DAY * (1 + (Math.floor(at / ZONES.length) % 50));
  return { from: date(from), to: date(from + 6 * DAY), timezone: ZONES[at % ZONES.length]! };
}

async function time(db: Db, host: Host, mode: "warm" | "computed" | "cold", round: number): Promise<number[]> {
  // computed: every call of every round asks a question not asked before.
  const call = (i: number) => {
    if (mode === "cold") invalidateHost(host.id);
    return listPublicSlotsJson(db, { username: host.username }, host.slug, query(round * (N + WARMUP) + i, mode !== "computed"), Date.now());
  };
  for (let i = 0; i < WARMUP; i++) await call(N + i);
  const times: number[] = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    await call(i);
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b);
}

const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const secret = randomUUID() + randomUUID();
  setConfig(parseConfig({ NODE_ENV: "production", DATA_DIR: mkdtempSync(path.join(tmpdir(), "bench-slots-")), LOG_LEVEL: "warn", JWT_SECRET: secret, ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64") }));
  const database = await openPglite(undefined);
  await database.migrate();
  setDatabase(database);
  const host = await seed(database.db);
  const figures: Record<string, { p50: number[]; p99: number[] }> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of ["warm", "computed", "cold"] as const) {
      const times = await time(database.db, host, mode, round);
      (figures[mode] ??= { p50: [], p99: [] }).p50.push(at(times, 0.5));
      figures[mode].p99.push(at(times, 0.99));
    }
  }
  console.log(`slots of a personal event type in-process, ${N} calls × ${ROUNDS} rounds (medians of the rounds):`);
  for (const [mode, { p50, p99 }] of Object.entries(figures)) {
    console.log(`  ${mode.padEnd(9)} p50 ${(median(p50) * 1000).toFixed(1).padStart(8)} µs   p99 ${(median(p99) * 1000).toFixed(1).padStart(8)} µs   (round p50s: ${p50.map((x) => (x * 1000).toFixed(x < 0.01 ? 1 : 0)).join(", ")})`);
  }
  await database.close();
}

void main();
