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
import { getPublicTeamEventTypeOrThrow, type PublicTeamEventType } from "@/lib/services/teams/public-pages";
import { loadHostSchedules, loadSchedules, type HostSchedule } from "./load";

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

// An entry holds while every key it was made from (a host's id, or a team's for its own rows)
// still has the generation it had then.
type Entry<T> = { deps: [key: string, generation: number][]; expires: number; value: T };
type State = {
  /** This process, so that it can tell its own notifications from other instances'. */
  instance: string;
  /** Whether this process listens for other instances' invalidations. */
  listening?: Promise<void>;
  /** Set once listening has started (or there is nothing to listen to: PGlite). */
  listened?: boolean;
  /** Bumped by every invalidation: a load that saw it change may hold stale rows. */
  epoch: number;
  generations: Map<string, number>;
  events: Map<string, Entry<PublicEventType>>;
  teamEvents: Map<string, Entry<PublicTeamEventType>>;
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
    teamEvents: new Map(),
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

/** The generations of `keys` now: what an entry made from them is checked against. */
function stamp(keys: readonly string[]): [string, number][] {
  return keys.map((k) => [k, generationOf(k)]);
}

function current<T>(entry: Entry<T> | undefined, now: number): entry is Entry<T> {
  return entry !== undefined && entry.expires > now && entry.deps.every(([k, g]) => generationOf(k) === g);
}

function forget(hostId: string): void {
  const s = state();
  s.epoch += 1;
  s.generations.set(hostId, generationOf(hostId) + 1);
  // Every schedule of the host (keys "host|schedule"); the generation alone would also retire them.
  for (const key of s.schedules.keys()) if (key.startsWith(`${hostId}|`)) s.schedules.delete(key);
}

/**
 * Forget everything this instance caches about a host: call after any write (committed) to its
 * hours, event types or bookings. A team's id works the same for what is cached of the team
 * (its public event types, its slot lists): lib/services/teams' writes invalidate it.
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
    .then(async (database) => {
      await database.messages?.listen(CHANNEL, (payload) => {
        const at = payload.indexOf(":");
        const from = payload.slice(0, at);
        const hostId = payload.slice(at + 1);
        if (at > 0 && from !== s.instance && hostId) forget(hostId);
      });
      s.listened = true;
    })
    .catch((err: unknown) => {
      s.listening = undefined;
      log.warn({ err }, "could not listen for schedule changes of other instances");
    });
}

/** What to wait for before reading the cache (starting to listen if nobody has); undefined once listening. */
function untilListening(): Promise<void> | undefined {
  const s = state();
  if (s.listened) return undefined;
  if (!s.listening) listenForOtherInstances();
  return s.listening;
}

async function cached<T>(map: Map<string, Entry<T>>, key: string, depsOf: (value: T) => string[], load: () => Promise<T>): Promise<T> {
  const s = state();
  // Listening first: an entry cached before it could miss another instance's change.
  const waiting = untilListening();
  if (waiting) await waiting;
  const now = Date.now();
  const hit = map.get(key);
  const fresh = current(hit, now);
  countCacheLookup(map === s.schedules ? "schedule" : "event", fresh);
  if (fresh) return hit.value;
  const epoch = s.epoch;
  const value = await load();
  // Nothing was invalidated while loading, so these rows are current: keep them.
  if (epoch === s.epoch) {
    if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value!);
    map.set(key, { deps: stamp(depsOf(value)), expires: now + ttl(), value });
  }
  return value;
}

/** The host and active event type behind /{username}/{slug} (404 otherwise; misses are not cached). */
export function getPublicEventTypeCached(db: Db, username: string, slug: string): Promise<PublicEventType> {
  return cached(state().events, `${username}/${slug}`, (v) => [v.host.id], () => getPublicEventTypeOrThrow(db, username, slug));
}

/** The team, its active event type behind /team/{teamSlug}/{slug} and its hosts (404 otherwise; misses are not cached). */
export function getPublicTeamEventTypeCached(db: Db, teamSlug: string, slug: string): Promise<PublicTeamEventType> {
  const teams = state().teamEvents;
  return cached(teams, `${teamSlug}/${slug}`, (v) => [v.team.id, ...v.hosts.map((h) => h.id)], () => getPublicTeamEventTypeOrThrow(db, teamSlug, slug));
}

/** A schedule's key: the host and which of their schedules (null: the default). */
function scheduleKey(hostId: string, scheduleId: string | null): string {
  return `${hostId}|${scheduleId ?? "default"}`;
}

/**
 * The host's hours from one of their schedules (null: the default), overrides and busy time from
 * yesterday on (the past offers no slots; bookings from a week back, for the limits' weeks).
 * Kept per host and schedule; any write to the host (writeForHost) retires all of them.
 */
export function getHostScheduleCached(db: Db, host: UserRow, scheduleId: string | null): Promise<HostSchedule> {
  return cached(state().schedules, scheduleKey(host.id, scheduleId), () => [host.id], async () =>
    (await loadSchedules(db, [{ host, scheduleId }], { from: Date.now() })).get(host.id)!,
  );
}

/**
 * getHostScheduleCached of each host's default schedule for several hosts (a team event type's:
 * each host's own hours, decisions §15): the ones not cached are read in one round trip
 * (loadHostSchedules) and kept like any other.
 */
export async function getHostSchedulesCached(db: Db, hosts: UserRow[]): Promise<HostSchedule[]> {
  const s = state();
  const waiting = untilListening();
  if (waiting) await waiting;
  const now = Date.now();
  const fresh = (hostId: string) => {
    const hit = s.schedules.get(scheduleKey(hostId, null));
    return current(hit, now) ? hit.value : undefined;
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
        s.schedules.set(scheduleKey(h.id, null), { deps: stamp([h.id]), expires: now + ttl(), value });
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
  const fresh = current(hit, now);
  countCacheLookup("response", fresh);
  return fresh ? hit.value : undefined;
}

/**
 * Keeps a serialised slot list until `validUntil` (the instant the engine's answer could first
 * differ for a later `now`), at most the cache's lifetime, unless something changed since `epoch`.
 */
export function rememberSlotResponse(key: string, deps: string[], epoch: number, body: string, now: number, validUntil: number): void {
  const s = state();
  if (epoch !== s.epoch || validUntil <= now) return;
  if (s.responses.size >= MAX_RESPONSES) s.responses.delete(s.responses.keys().next().value!);
  s.responses.set(key, { deps: stamp(deps), expires: Math.min(validUntil, now + ttl()), value: body });
}
