// The slot engine alone: computeSlots for 31 days with 500 busy intervals (see bench/run.ts).
import { computeSlots, type Interval, type SlotInput } from "@/lib/slots";
import { computeTeamSlots, type SchedulingType } from "@/lib/slots/team";

const MINUTE = 60_000;
const DAY = 86_400_000;

export type EngineResult = { calls: number; slots: number; meanMs: number; p50Ms: number; p99Ms: number; maxMs: number };

/** Deterministic pseudo-random numbers (mulberry32), so every run measures the same input. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A New York host, Monday–Friday 09:00–17:00, a 30-minute event every 15 minutes with 10 minutes
 * of buffer before and 5 after, queried by a guest in Berlin for 31 days. The range crosses both
 * DST changes of March 2027 (US 14 March, EU 28 March), so the per-day offset cache sees them too.
 */
export function engineInput(busyCount = 500, seed = 42): SlotInput {
  const now = Date.UTC(2027, 2, 1, 12);
  const rand = random(seed);
  const busy: Interval[] = [];
  for (let i = 0; i < busyCount; i++) {
    // Anywhere in the 31 days (plus the ±1 day the service widens by), 15 to 120 minutes long.
    const start = now + Math.floor(rand() * 33 * 96) * 15 * MINUTE - DAY;
    busy.push({ start, end: start + (1 + Math.floor(rand() * 8)) * 15 * MINUTE });
  }
  return {
    now,
    host: { timeZone: "America/New_York", minNoticeHours: 4, maxAdvanceDays: 60 },
    weeklyRules: [1, 2, 3, 4, 5].map((dayOfWeek) => ({ dayOfWeek, startMinute: 9 * 60, endMinute: 17 * 60 })),
    overrides: [{ date: "2027-03-19", intervals: [{ startMinute: 13 * 60, endMinute: 15 * 60 }] }],
    eventType: { durationMinutes: 30, bufferBeforeMinutes: 10, bufferAfterMinutes: 5, slotIntervalMinutes: 15 },
    busy,
    range: { from: "2027-03-02", to: "2027-04-01", timeZone: "Europe/Berlin" },
  };
}

export function runEngineBench(calls = 2000, warmup = 500): EngineResult {
  const input = engineInput();
  return measure(() => computeSlots(input).length, calls, warmup);
}

const TEAM_ZONES = ["America/New_York", "Europe/Berlin", "Asia/Kolkata", "America/Los_Angeles", "Europe/London"];

/**
 * A team event type of 10 hosts (two in each of five zones, each with its own 500 busy intervals
 * from its own seed), the same 31 days for a Berlin guest: each host's slots from the engine,
 * then their union (round robin) or intersection (collective). Target: under 5 ms per call.
 */
export function runTeamEngineBench(type: SchedulingType, calls = 300, warmup = 50): EngineResult {
  const base = engineInput();
  const hosts = Array.from({ length: 10 }, (_, i) => {
    const own = engineInput(500, 100 + i);
    return { hostId: `host${i}`, input: { ...base, busy: own.busy, host: { ...base.host, timeZone: TEAM_ZONES[i % TEAM_ZONES.length]! } } };
  });
  return measure(() => computeTeamSlots(type, hosts).length, calls, warmup);
}

function measure(run: () => number, calls: number, warmup: number): EngineResult {
  let slots = 0;
  for (let i = 0; i < warmup; i++) slots = run();
  const times = new Float64Array(calls);
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    const result = run();
    times[i] = performance.now() - t0;
    if (result !== slots) throw new Error("the engine is not deterministic");
  }
  times.sort();
  const sum = times.reduce((a, b) => a + b, 0);
  const at = (q: number) => times[Math.min(calls - 1, Math.ceil(q * calls) - 1)]!;
  return { calls, slots, meanMs: sum / calls, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: times[calls - 1]! };
}
