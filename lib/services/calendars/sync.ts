import "server-only";
import { and, asc, eq, inArray, isNull, lte, ne } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import {
  bookingCalendarEvents,
  busyIntervals,
  calendarConnections,
  calendars,
  users,
  type CalendarConnectionRow,
} from "@/db/schema";
import { CalendarError, type CalendarChanges, type ExternalCalendar } from "@/lib/calendars";
import { getConfig } from "@/lib/config";
import { connectionClient, recordConnectionFailure } from "./store";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { writeForHost } from "@/lib/services/host-time/writes";

// Busy-time sync: reads what changed in a connection's calendars and keeps their busy time in
// busy_intervals, where the slot engine's loader reads it. Slots never wait on a provider: they
// read only what the last good sync stored. A failed sync changes no busy data (the last known
// stays in force) and says what happened in the connection's status.
//
// Reads are incremental (decisions §17): each calendar keeps the provider's state (Google
// nextSyncToken, Graph deltaLink, CalDAV sync-token or ETags) and the end of the span it has
// stored. A poll asks only what changed since and replaces just those events (by event key). The
// span is read whole when there is no state, when the provider has forgotten it, or when the
// needed span (now + the host's booking window + 2 days) has grown past what was stored: the
// whole read then reaches FULL_READ_AHEAD_MS further, so it happens about weekly, not every poll.

/** How often each connection is read again in the background (CALENDAR_SYNC_INTERVAL_S). */
export const syncIntervalMs = () => getConfig().calendarSyncIntervalS * 1000;
const DAY = 86_400_000;
/** How far past the needed span a full read stores: the span's end moves a day a day, so about weekly. */
export const FULL_READ_AHEAD_MS = 7 * DAY;

export type SyncResult = { status: CalendarConnectionRow["status"]; busyChanged: boolean };

async function recordFailure(db: Db, connection: CalendarConnectionRow, error: unknown): Promise<SyncResult> {
  if (error instanceof CalendarError) {
    log.warn({ connectionId: connection.id, provider: connection.provider, kind: error.kind, httpStatus: error.status }, "calendar sync failed");
  } else {
    log.error({ err: error, connectionId: connection.id, provider: connection.provider }, "calendar sync failed unexpectedly");
  }
  const status = await recordConnectionFailure(db, connection.id, error);
  return { status, busyChanged: false };
}

type Interval = { key: string | null; start: number; end: number };
const tuple = (r: Interval) => `${r.key ?? ""}\u0000${r.start}\u0000${r.end}`;
/** Same intervals, in any order. */
function sameIntervals(a: Interval[], b: Interval[]): boolean {
  if (a.length !== b.length) return false;
  const x = a.map(tuple).sort();
  const y = b.map(tuple).sort();
  return x.every((t, i) => t === y[i]);
}

/**
 * What one calendar's read means for its stored rows: which to delete ("all", or those of the
 * given event keys), which to insert, and whether that changes what the slots read.
 */
type CalendarPlan = {
  remove: "all" | string[];
  /** Drop the rows a check at booking stored (no event key): the read that follows it names the event. */
  removeUnkeyed: boolean;
  insert: Interval[];
  busyChanged: boolean;
  state: string;
  syncedTo: Date;
};

/**
 * Turns a provider's answer into a plan against the stored rows. `own` holds the ids of the events
 * this service wrote for bookings (the bookings already block their time, and a rescheduled
 * booking must not be blocked by its own old event); their rows go whatever the answer says.
 */
export function planCalendar(changes: CalendarChanges, stored: Interval[], own: Set<string>, syncedTo: Date): CalendarPlan {
  const isOwn = (key: string, eventId?: string) => own.has(key) || (eventId !== undefined && own.has(eventId));
  const fresh = (key: string) =>
    (changes.upserts.get(key) ?? []).filter((r) => r.start < r.end && !isOwn(key, r.eventId)).map((r) => ({ key, start: r.start, end: r.end }));
  if (changes.full) {
    const insert = [...changes.upserts.keys()].flatMap(fresh);
    const same = sameIntervals(insert, stored);
    return { remove: same ? [] : "all", removeUnkeyed: false, insert: same ? [] : insert, busyChanged: !same, state: changes.state, syncedTo };
  }
  const touched = new Set([...changes.upserts.keys(), ...changes.removed]);
  // Rows of our own events stored before the booking's event was recorded go too.
  for (const r of stored) if (r.key !== null && own.has(r.key)) touched.add(r.key);
  const remove: string[] = [];
  const insert: Interval[] = [];
  for (const key of touched) {
    const next = changes.upserts.has(key) ? fresh(key) : [];
    if (sameIntervals(next, stored.filter((r) => r.key === key))) continue;
    remove.push(key);
    insert.push(...next);
  }
  // A check at booking stores what it found without an event key and makes this read due at once;
  // the provider's changes since the last read include that event, now with its key.
  const removeUnkeyed = stored.some((r) => r.key === null);
  return { remove, removeUnkeyed, insert, busyChanged: remove.length > 0 || removeUnkeyed, state: changes.state, syncedTo };
}

/**
 * Reads what changed in the connection's calendars now and stores it. A write of busy data goes
 * through the host's one door (writeForHost, under the booking lock), so the slot cache of the
 * host is dropped on every instance exactly when busy data changed.
 */
export async function syncConnection(db: Db, connectionId: string, now: number = Date.now()): Promise<SyncResult | undefined> {
  const [row] = await db
    .select({ connection: calendarConnections, timezone: users.timezone, maxAdvanceDays: users.maxAdvanceDays })
    .from(calendarConnections)
    .innerJoin(users, eq(users.id, calendarConnections.userId))
    .where(eq(calendarConnections.id, connectionId))
    .limit(1);
  if (!row) return undefined;
  const { connection } = row;

  const from = now - DAY;
  const needed = now + (row.maxAdvanceDays + 2) * DAY;
  const stored = await db.select().from(calendars).where(eq(calendars.connectionId, connection.id));
  const byExternal = new Map(stored.map((c) => [c.externalId, c]));

  let listed: ExternalCalendar[];
  const read = new Map<string, { changes: CalendarChanges; syncedTo: Date }>();
  try {
    const client = connectionClient(db, connection);
    listed = await client.listCalendars();
    // One calendar at a time: providers throttle an account's concurrent requests.
    for (const c of listed) {
      const old = byExternal.get(c.externalId);
      const incremental = old?.syncState && old.syncedTo && old.syncedTo.getTime() >= needed;
      const to = incremental ? old.syncedTo!.getTime() : needed + FULL_READ_AHEAD_MS;
      try {
        const changes = await client.changes(c.externalId, { state: incremental ? old.syncState : null, from, to, timeZone: row.timezone });
        read.set(c.externalId, { changes, syncedTo: new Date(to) });
      } catch (error) {
        // A calendar removed since it was listed has no answer; the others still count.
        if (!(error instanceof CalendarError && error.kind === "not_found")) throw error;
      }
    }
  } catch (error) {
    return recordFailure(db, connection, error);
  }

  const own = await db
    .select({ uid: bookingCalendarEvents.uid, eventId: bookingCalendarEvents.externalEventId })
    .from(bookingCalendarEvents)
    .innerJoin(calendars, eq(calendars.id, bookingCalendarEvents.calendarId))
    .where(eq(calendars.userId, connection.userId));
  const ownIds = new Set(own.flatMap((e) => [e.uid, e.eventId]));

  const storedBusy = stored.length
    ? await db
        .select({ calendarId: busyIntervals.calendarId, key: busyIntervals.eventKey, start: busyIntervals.startTime, end: busyIntervals.endTime })
        .from(busyIntervals)
        .where(inArray(busyIntervals.calendarId, stored.map((c) => c.id)))
    : [];
  const storedOf = (calendarId: string): Interval[] =>
    storedBusy.filter((b) => b.calendarId === calendarId).map((b) => ({ key: b.key, start: b.start.getTime(), end: b.end.getTime() }));

  const listedIds = new Set(listed.map((c) => c.externalId));
  const added = listed.filter((c) => !byExternal.has(c.externalId));
  const removed = stored.filter((c) => !listedIds.has(c.externalId));
  const renamed = listed.filter((c) => {
    const old = byExternal.get(c.externalId);
    return old !== undefined && (old.name !== c.name || old.readOnly !== !c.writable);
  });
  const plans = new Map<string, CalendarPlan>();
  for (const [externalId, { changes, syncedTo }] of read) {
    const old = byExternal.get(externalId);
    plans.set(externalId, planCalendar(changes, old ? storedOf(old.id) : [], ownIds, syncedTo));
  }
  const busyChanged = removed.length > 0 || [...plans.values()].some((p) => p.busyChanged);
  const settled = { status: "connected" as const, lastError: null, lastSyncedAt: new Date(now), busyAsOf: new Date(now) };

  const saveStates = async (tx: Db | Tx) => {
    for (const c of stored) {
      const plan = plans.get(c.externalId);
      if (!plan || !listedIds.has(c.externalId) || (plan.state === c.syncState && plan.syncedTo.getTime() === c.syncedTo?.getTime())) continue;
      await tx.update(calendars).set({ syncState: plan.state, syncedTo: plan.syncedTo }).where(eq(calendars.id, c.id));
    }
  };

  if (!busyChanged && added.length === 0 && renamed.length === 0) {
    // Nothing the slots read has changed: the cache stays as it is; only where to go on from.
    await db.transaction(async (tx) => {
      await saveStates(tx);
      await tx.update(calendarConnections).set(settled).where(eq(calendarConnections.id, connection.id));
    });
    return { status: "connected", busyChanged: false };
  }

  await writeForHost(
    db,
    connection.userId,
    async (tx) => {
      if (removed.length) await tx.delete(calendars).where(inArray(calendars.id, removed.map((c) => c.id)));
      for (const c of renamed) {
        // A calendar the account can no longer write to stops being the write target.
        const readOnly = !c.writable;
        await tx
          .update(calendars)
          .set({ name: c.name, readOnly, ...(readOnly ? { writeTarget: false } : {}) })
          .where(eq(calendars.id, byExternal.get(c.externalId)!.id));
      }
      const apply = async (calendarId: string, plan: CalendarPlan) => {
        if (plan.remove === "all") await tx.delete(busyIntervals).where(eq(busyIntervals.calendarId, calendarId));
        else if (plan.remove.length) await tx.delete(busyIntervals).where(and(eq(busyIntervals.calendarId, calendarId), inArray(busyIntervals.eventKey, plan.remove)));
        if (plan.removeUnkeyed) await tx.delete(busyIntervals).where(and(eq(busyIntervals.calendarId, calendarId), isNull(busyIntervals.eventKey)));
        if (plan.insert.length) {
          await tx
            .insert(busyIntervals)
            .values(plan.insert.map((r) => ({ calendarId, userId: connection.userId, startTime: new Date(r.start), endTime: new Date(r.end), eventKey: r.key })));
        }
      };
      for (const c of added) {
        const plan = plans.get(c.externalId);
        const [inserted] = await tx
          .insert(calendars)
          .values({
            id: newId("cld"),
            connectionId: connection.id,
            userId: connection.userId,
            externalId: c.externalId,
            name: c.name,
            isPrimary: c.isPrimary,
            readOnly: !c.writable,
            ...(plan ? { syncState: plan.state, syncedTo: plan.syncedTo } : {}),
          })
          .onConflictDoNothing()
          .returning();
        if (inserted && plan) await apply(inserted.id, plan);
      }
      for (const c of stored) {
        const plan = plans.get(c.externalId);
        if (plan && listedIds.has(c.externalId) && plan.busyChanged) await apply(c.id, plan);
      }
      await saveStates(tx);
      await tx.update(calendarConnections).set(settled).where(eq(calendarConnections.id, connection.id));
    },
    { lockBookings: true },
  );
  return { status: "connected", busyChanged };
}

/**
 * Takes up to `limit` connections whose background sync is due, and moves their next due time
 * on in the same statement: a lease, so instances sharing one PostgreSQL never take the same
 * connection (SKIP LOCKED), and one that died mid-sync is taken again an interval later.
 * Connections that need the host to connect again are left alone until they do.
 */
export async function claimDueConnections(db: Db, now: number, limit: number): Promise<string[]> {
  const due = db
    .select({ id: calendarConnections.id })
    .from(calendarConnections)
    .where(and(lte(calendarConnections.syncDueAt, new Date(now)), ne(calendarConnections.status, "reauth_required")))
    .orderBy(asc(calendarConnections.syncDueAt))
    .limit(limit)
    .for("update", { skipLocked: true });
  const claimed = await db
    .update(calendarConnections)
    .set({ syncDueAt: new Date(now + syncIntervalMs()) })
    .where(inArray(calendarConnections.id, due))
    .returning({ id: calendarConnections.id });
  return claimed.map((c) => c.id);
}
