import "server-only";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { Db } from "@/db";
import { outboxDepth } from "@/lib/outbox/depth";
import { getConfig } from "@/lib/config";

// Prometheus metrics (issue 13), served at /metrics when METRICS=1 or METRICS_TOKEN is set:
// requests by route and status with durations, booking outcomes, the slot cache's hits and
// misses, and the outbox's depth and age (read from the database at scrape time, so every
// instance reports the shared queue). One registry per process, on globalThis: Next.js may load
// this module once per bundle. Off (the default), nothing is counted: prom-client's labelled
// counters and histogram cost ~15 µs per slots request, and its default metrics watch every GC.

type Metrics = {
  registry: Registry;
  requests: Counter<"method" | "route" | "status">;
  duration: Histogram<"method" | "route">;
  bookings: Counter<"outcome">;
  cache: Counter<"cache" | "result">;
  outboxDepth: Gauge<"status">;
  outboxAge: Gauge;
};

const holder = globalThis as unknown as { __bookingMetrics?: Metrics };

function metrics(): Metrics {
  if (holder.__bookingMetrics) return holder.__bookingMetrics;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const m: Metrics = {
    registry,
    requests: new Counter({ name: "http_requests_total", help: "API requests by route template, method and status", labelNames: ["method", "route", "status"], registers: [registry] }),
    duration: new Histogram({
      name: "http_request_duration_seconds",
      help: "API request durations by route template",
      labelNames: ["method", "route"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    bookings: new Counter({ name: "booking_outcomes_total", help: "Booking requests by outcome (created, replayed, or the error code)", labelNames: ["outcome"], registers: [registry] }),
    cache: new Counter({ name: "slot_cache_lookups_total", help: "Slot cache lookups (event, schedule, response, page) by result (hit, miss)", labelNames: ["cache", "result"], registers: [registry] }),
    outboxDepth: new Gauge({ name: "outbox_jobs", help: "Outbox jobs not finished, by status", labelNames: ["status"], registers: [registry] }),
    outboxAge: new Gauge({ name: "outbox_oldest_due_age_seconds", help: "How long the oldest due outbox job has waited", registers: [registry] }),
  };
  holder.__bookingMetrics = m;
  return m;
}

const enabled = () => getConfig().metrics.enabled;

export function observeRequest(method: string, route: string, status: number, seconds: number): void {
  if (!enabled()) return;
  const m = metrics();
  m.requests.inc({ method, route, status: String(status) });
  m.duration.observe({ method, route }, seconds);
}

export function countBookingOutcome(outcome: string): void {
  if (enabled()) metrics().bookings.inc({ outcome });
}

export function countCacheLookup(cache: "schedule" | "event" | "response" | "page", hit: boolean): void {
  if (enabled()) metrics().cache.inc({ cache, result: hit ? "hit" : "miss" });
}

/** The metrics in Prometheus' text format, the outbox read fresh from the database. */
export async function metricsText(db: Db): Promise<{ contentType: string; body: string }> {
  const m = metrics();
  const rows = await outboxDepth(db);
  m.outboxDepth.reset();
  for (const status of ["pending", "running"]) m.outboxDepth.set({ status }, rows.find((r) => r.status === status)?.jobs ?? 0);
  m.outboxAge.set(Number(rows.find((r) => r.status === "pending")?.age ?? 0));
  return { contentType: m.registry.contentType, body: await m.registry.metrics() };
}
