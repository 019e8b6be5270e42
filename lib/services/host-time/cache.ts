import "server-only";
import { randomUUID } from "node:crypto";
import type { Db } from "@/db";
import { getDatabase } from "@/lib/store/database";
import type { Statement } from "@/db/client";
import { getConfig } from "@/lib/config";
import { log } from "@/lib/log";
import { countCacheLookup } from "@/lib/metrics";
import { loadSchedules, type HostSchedule, type ScheduleRequest } from "./load";

// What the public slot list reads, kept in memory per host: the lookups it starts from (the
// bookable behind a public path: lib/services/bookable), and each host's schedule
// (hours, overrides, upcoming bookings, calendar busy time). A hit costs no query, which is what
// lets the slots endpoint answer at close to the framework's own speed. It is a read cache only:
// a booking is always re-checked against the database inside its transaction (slot-input.ts),
// so a stale entry can at worst show a slot that then answers 409 — never a double booking.
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
  lookups: Map<string, Entry<unknown>>;
  schedules: Map<string, Entry<HostSchedule>>;
  responses: Map<string, Entry<string>>;
  /** Rendered booking pages (lib/http/page-cache.ts): ~40 KB each with their compressed forms. */
  pages: Map<string, Entry<unknown>>;
};

const MAX_ENTRIES = 10_000;
// Serialised slot lists are ~20 KB each: fewer of them.
const MAX_RESPONSES = 2_000;
// A page is an event type in one language and one first weekday (lib/http/page-cache.ts).
const MAX_PAGES = 1_000;

// One cache per process: Next.js may load this module once per route bundle.
const holder = globalThis as unknown as { __bookingScheduleCache?: State };
function state(): State {
  holder.__bookingScheduleCache ??= {
    instance: randomUUID(),
    epoch: 0,
    generations: new Map(),
    lookups: new Map(),
    schedules: new Map(),
    responses: new Map(),
    pages: new Map(),
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

/**
 * A value read from the database and kept until one of the keys `dependenciesOf` names changes
 * (a host's or a team's id), or the cache's lifetime ends. What throws is not kept (a 404 is read
 * again). `metric` names the lookup in the cache's hit counters.
 */
export async function cachedLookup<T>(key: string, metric: "event", load: () => Promise<T>, dependenciesOf: (value: T) => string[]): Promise<T> {
  const s = state();
  // Listening first: an entry cached before it could miss another instance's change.
  const waiting = untilListening();
  if (waiting) await waiting;
  const now = Date.now();
  const hit = s.lookups.get(key) as Entry<T> | undefined;
  const fresh = current(hit, now);
  countCacheLookup(metric, fresh);
  if (fresh) return hit.value;
  const epoch = s.epoch;
  const value = await load();
  keep(s.lookups, MAX_ENTRIES, epoch, key, { deps: stamp(dependenciesOf(value)), expires: now + ttl(), value });
  return value;
}

/** Keeps an entry made at `epoch`, unless something was invalidated while it was being read. */
function keep<T>(map: Map<string, Entry<T>>, max: number, epoch: number, key: string, entry: Entry<T>): void {
  if (epoch !== state().epoch) return;
  if (map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, entry);
}

/** A schedule's key: the host and which of their schedules (null: the default). */
function scheduleKey({ host, scheduleId }: ScheduleRequest): string {
  return `${host.id}|${scheduleId ?? "default"}`;
}

/**
 * Each host's hours from the schedule named (null: their default), overrides and busy time from
 * yesterday on (the past offers no slots; bookings from a week back, for the limits' weeks).
 * Kept per host and schedule; any write to the host (writeForHost) retires all of theirs. The
 * ones not kept are read in one round trip, however many hosts there are.
 */
export async function getHostSchedulesCached(db: Db, hosts: ScheduleRequest[]): Promise<HostSchedule[]> {
  const s = state();
  const waiting = untilListening();
  if (waiting) await waiting;
  const now = Date.now();
  const fresh = (h: ScheduleRequest) => {
    const hit = s.schedules.get(scheduleKey(h));
    return current(hit, now) ? hit.value : undefined;
  };
  const kept = hosts.map(fresh);
  for (const value of kept) countCacheLookup("schedule", value !== undefined);
  const misses = hosts.filter((_, i) => kept[i] === undefined);
  if (misses.length === 0) return kept as HostSchedule[];
  const epoch = s.epoch;
  const loaded = await loadSchedules(db, misses, { from: now });
  for (const h of misses) keep(s.schedules, MAX_ENTRIES, epoch, scheduleKey(h), { deps: stamp([h.host.id]), expires: now + ttl(), value: loaded.get(h.host.id)! });
  return hosts.map((h, i) => kept[i] ?? loaded.get(h.host.id)!);
}

/** Where an invalidation would show: read before loading, passed to rememberSlotResponse and keepPage. */
export function cacheEpoch(): number {
  return state().epoch;
}

/** A kept answer and the instant it stops being valid. */
export type Kept<T> = { value: T; expires: number };

function kept<T>(map: Map<string, Entry<unknown>>, metric: "response" | "page", key: string, now: number): Kept<T> | undefined {
  const hit = map.get(key) as Entry<T> | undefined;
  const fresh = current(hit, now);
  countCacheLookup(metric, fresh);
  return fresh ? { value: hit.value, expires: hit.expires } : undefined;
}

/** A serialised slot list still valid at `now`, if one is kept for `key`. */
export function cachedSlotResponse(key: string, now: number): Kept<string> | undefined {
  return kept(state().responses, "response", key, now);
}

/**
 * Keeps a serialised slot list until `validUntil` (the instant the engine's answer could first
 * differ for a later `now`), at most the cache's lifetime, unless something changed since `epoch`.
 */
export function rememberSlotResponse(key: string, deps: string[], epoch: number, body: string, now: number, validUntil: number): void {
  if (validUntil <= now) return;
  keep(state().responses, MAX_RESPONSES, epoch, key, { deps: stamp(deps), expires: Math.min(validUntil, now + ttl()), value: body });
}

/** A rendered page still valid at `now`, if one is kept for `key` (lib/http/page-cache.ts). */
export function keptPage<T>(key: string, now: number): Kept<T> | undefined {
  return kept(state().pages, "page", key, now);
}

/**
 * Keeps a rendered page made from the rows of `deps` (hosts' and teams' ids) until one of them
 * changes or `validUntil` (when its content could change with the clock), at most the cache's
 * lifetime; not at all if anything was invalidated since `epoch`, read before it was rendered.
 */
export function keepPage<T>(key: string, deps: string[], epoch: number, page: T, now: number, validUntil: number): boolean {
  if (validUntil <= now || epoch !== state().epoch) return false;
  keep(state().pages, MAX_PAGES, epoch, key, { deps: stamp(deps), expires: Math.min(validUntil, now + ttl()), value: page });
  return true;
}

/** Whether this process already hears other instances' changes (always, on PGlite): until then nothing may be kept from a render. */
export function hearsOtherInstances(): boolean {
  return untilListening() === undefined;
}
