import "server-only";
import { randomUUID } from "node:crypto";
import type { Db } from "@/db";
import { getDatabase } from "@/lib/store/database";
import type { Statement } from "@/db/client";
import type { UserRow } from "@/db/schema";
import { getConfig } from "@/lib/config";
import { log } from "@/lib/log";
import { countCacheLookup } from "@/lib/metrics";
import { getPublicEventTypeOrThrow, type PublicEventType } from "@/lib/services/event-types/public";
import { loadHostSchedule, loadHostSchedules, type HostSchedule } from "./load";

// What the public slot list reads, kept in memory per host: the event type behind a public
// path, and the host's schedule (hours, overrides, upcoming bookings, calendar busy time). A hit
// costs no query, which is what lets the slots endpoint answer at close to the framework's own
// speed. It is a read cache only: a booking is always re-checked against the database inside
// its transaction (slot-input.ts), so a stale entry can at worst show a slot that then answers
// 409 — never a double booking.
//
// Freshness: every write to these facts goes through writeForHost, which sends
// scheduleChangeNotice() inside its transaction and calls invalidateHost() after the commit.
// With DATABASE_URL, where other instances may write, the notice reaches them over PostgreSQL's
// NOTIFY, which is delivered at the commit and dropped with a rollback. Entries expire too, as a
// bound should a message be lost: after a minute on embedded PGlite (this process is the only
// writer), after 15 seconds on PostgreSQL.

type Entry<T> = { hostId: string; generation: number; expires: number; value: T };
type State = {
  /** This process, so that it can tell its own notifications from other instances'. */
  instance: string;
  /** Whether this process listens for other instances' invalidations. */
  listening?: Promise<void>;
  /** Bumped by every invalidation: a load that saw it change may hold stale rows. */
  epoch: number;
  generations: Map<string, number>;
  events: Map<string, Entry<PublicEventType>>;
  schedules: Map<string, Entry<HostSchedule>>;
  responses: Map<string, Entry<string>>;
};

const MAX_ENTRIES = 10_000;
// Serialised slot lists are ~20 KB each: fewer of them.
const MAX_RESPONSES = 2_000;

// One cache per process: Next.js may load this module once per route bundle.
const holder = globalThis as unknown as { __bookingScheduleCache?: State };
function state(): State {
  holder.__bookingScheduleCache ??= {
    instance: randomUUID(),
    epoch: 0,
    generations: new Map(),
    events: new Map(),
    schedules: new Map(),
    responses: new Map(),
  };
  return holder.__bookingScheduleCache;
}

const CHANNEL = "booking_schedule_changed";

function ttl(): number {
  return getConfig().databaseUrl ? 15_000 : 60_000;
}

function generationOf(hostId: string): number {
  return state().generations.get(hostId) ?? 0;
}

function forget(hostId: string): void {
  const s = state();
  s.epoch += 1;
  s.generations.set(hostId, generationOf(hostId) + 1);
  s.schedules.delete(hostId);
}

/**
 * Forget everything this instance caches about a host: call after any write (committed) to its
 * hours, event types or bookings.
 */
export function invalidateHost(hostId: string): void {
  forget(hostId);
}

/**
 * What tells the other instances on the same PostgreSQL to forget the host: a NOTIFY for the
 * writing transaction's pipeline. PostgreSQL sends it when the transaction commits, and not at
 * all if it rolls back, so it can go out with the transaction's first statements and costs no
 * round trip and no transaction of its own. (On PGlite nobody listens; it is harmless there.)
 */
export function scheduleChangeNotice(hostId: string): Statement {
  return { text: "select pg_notify($1::text, $2::text) as notified", params: [CHANNEL, `${state().instance}:${hostId}`] };
}

/** Starts listening for other instances' invalidations, once per process (PostgreSQL only). */
function listenForOtherInstances(): void {
  const s = state();
  s.listening ??= getDatabase()
    .then((database) =>
      database.messages?.listen(CHANNEL, (payload) => {
        const [from, hostId] = payload.split(":");
        if (from !== s.instance && hostId) forget(hostId);
      }),
    )
    .catch((err: unknown) => {
      s.listening = undefined;
      log.warn({ err }, "could not listen for schedule changes of other instances");
    });
}

async function cached<T>(map: Map<string, Entry<T>>, key: string, hostIdOf: (value: T) => string, load: () => Promise<T>): Promise<T> {
  const s = state();
  if (!s.listening) listenForOtherInstances();
  // Listening first: an entry cached before it could miss another instance's change.
  await s.listening;
  const now = Date.now();
  const hit = map.get(key);
  const fresh = hit !== undefined && hit.expires > now && hit.generation === generationOf(hit.hostId);
  countCacheLookup(map === s.events ? "event" : "schedule", fresh);
  if (fresh) return hit.value;
  const epoch = s.epoch;
  const value = await load();
  // Nothing was invalidated while loading, so these rows are current: keep them.
  if (epoch === s.epoch) {
    if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value!);
    const hostId = hostIdOf(value);
    map.set(key, { hostId, generation: generationOf(hostId), expires: now + ttl(), value });
  }
  return value;
}

/** The host and active event type behind /{username}/{slug} (404 otherwise; misses are not cached). */
export function getPublicEventTypeCached(db: Db, username: string, slug: string): Promise<PublicEventType> {
  return cached(state().events, `${username}/${slug}`, (v) => v.host.id, () => getPublicEventTypeOrThrow(db, username, slug));
}

/** The host's hours, overrides and busy time from yesterday on (the past offers no slots). */
export function getHostScheduleCached(db: Db, host: UserRow): Promise<HostSchedule> {
  return cached(state().schedules, host.id, () => host.id, () => loadHostSchedule(db, host, { from: Date.now() }));
}

/**
 * getHostScheduleCached for several hosts (a team event type's): the ones not cached are read
 * in one round trip (loadHostSchedules) and kept like any other.
 */
export async function getHostSchedulesCached(db: Db, hosts: UserRow[]): Promise<HostSchedule[]> {
  const s = state();
  if (!s.listening) listenForOtherInstances();
  await s.listening;
  const now = Date.now();
  const fresh = (hostId: string) => {
    const hit = s.schedules.get(hostId);
    return hit !== undefined && hit.expires > now && hit.generation === generationOf(hostId) ? hit.value : undefined;
  };
  const misses = hosts.filter((h) => fresh(h.id) === undefined);
  for (const h of hosts) countCacheLookup("schedule", !misses.includes(h));
  if (misses.length > 0) {
    const epoch = s.epoch;
    const loaded = await loadHostSchedules(db, misses, { from: now });
    for (const h of misses) {
      const value = loaded.get(h.id)!;
      // Nothing was invalidated while loading, so these rows are current: keep them.
      if (epoch === s.epoch) {
        if (s.schedules.size >= MAX_ENTRIES) s.schedules.delete(s.schedules.keys().next().value!);
        s.schedules.set(h.id, { hostId: h.id, generation: generationOf(h.id), expires: now + ttl(), value });
      }
    }
    return hosts.map((h) => fresh(h.id) ?? loaded.get(h.id)!);
  }
  return hosts.map((h) => fresh(h.id)!);
}

/** Where an invalidation would show: read before loading, passed to rememberSlotResponse. */
export function cacheEpoch(): number {
  return state().epoch;
}

/** A serialised slot list still valid at `now`, if one is kept for `key`. */
export function cachedSlotResponse(key: string, now: number): string | undefined {
  const hit = state().responses.get(key);
  const fresh = hit !== undefined && now < hit.expires && hit.generation === generationOf(hit.hostId);
  countCacheLookup("response", fresh);
  return fresh ? hit.value : undefined;
}

/**
 * Keeps a serialised slot list until `validUntil` (the instant the engine's answer could first
 * differ for a later `now`), at most the cache's lifetime, unless something changed since `epoch`.
 */
export function rememberSlotResponse(key: string, hostId: string, epoch: number, body: string, now: number, validUntil: number): void {
  const s = state();
  if (epoch !== s.epoch || validUntil <= now) return;
  if (s.responses.size >= MAX_RESPONSES) s.responses.delete(s.responses.keys().next().value!);
  s.responses.set(key, { hostId, generation: generationOf(hostId), expires: Math.min(validUntil, now + ttl()), value: body });
}
