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
  type CalendarRow,
} from "@/db/schema";
import { CalendarError } from "@/lib/calendars";
import { getConfig } from "@/lib/config";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { writeForHost } from "@/lib/services/host-time/writes";
import { connectionClient, recordConnectionFailure } from "./store";
import { planSync, type CalendarPlan, type ProviderRead, type StoredSide, type SyncPlan } from "./sync-plan";

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

/** The connection to sync, with what of its host the span depends on. */
type SyncTarget = { connection: CalendarConnectionRow; timezone: string; maxAdvanceDays: number };

async function loadTarget(db: Db, connectionId: string): Promise<SyncTarget | undefined> {
  const [row] = await db
    .select({ connection: calendarConnections, timezone: users.timezone, maxAdvanceDays: users.maxAdvanceDays })
    .from(calendarConnections)
    .innerJoin(users, eq(users.id, calendarConnections.userId))
    .where(eq(calendarConnections.id, connectionId))
    .limit(1);
  return row;
}

/**
 * Asks the provider for the account's calendars and what changed in each. A calendar whose stored
 * span still covers what is needed (now + the booking window + 2 days) is read incrementally; any
 * other is read whole, FULL_READ_AHEAD_MS further. Throws what the provider threw.
 */
async function readProvider(db: Db, { connection, timezone, maxAdvanceDays }: SyncTarget, stored: CalendarRow[], now: number): Promise<ProviderRead> {
  const from = now - DAY;
  const needed = now + (maxAdvanceDays + 2) * DAY;
  const byExternal = new Map(stored.map((c) => [c.externalId, c]));
  const client = connectionClient(db, connection);
  const listed = await client.listCalendars();
  const read: ProviderRead["read"] = new Map();
  // One calendar at a time: providers throttle an account's concurrent requests.
  for (const c of listed) {
    const old = byExternal.get(c.externalId);
    const incremental = old?.syncState && old.syncedTo && old.syncedTo.getTime() >= needed;
    const to = incremental ? old.syncedTo!.getTime() : needed + FULL_READ_AHEAD_MS;
    try {
      const changes = await client.changes(c.externalId, { state: incremental ? old.syncState : null, from, to, timeZone: timezone });
      read.set(c.externalId, { changes, syncedTo: new Date(to) });
    } catch (error) {
      // A calendar removed since it was listed has no answer; the others still count.
      if (!(error instanceof CalendarError && error.kind === "not_found")) throw error;
    }
  }
  return { listed, read };
}

/** What the plan is made against: the calendars' busy rows, and the events this service wrote for the host's bookings. */
async function loadStoredSide(db: Db, connection: CalendarConnectionRow, stored: CalendarRow[]): Promise<StoredSide> {
  const own = await db
    .select({ uid: bookingCalendarEvents.uid, eventId: bookingCalendarEvents.externalEventId })
    .from(bookingCalendarEvents)
    .innerJoin(calendars, eq(calendars.id, bookingCalendarEvents.calendarId))
    .where(eq(calendars.userId, connection.userId));
  const storedBusy = stored.length
    ? await db
        .select({ calendarId: busyIntervals.calendarId, key: busyIntervals.eventKey, start: busyIntervals.startTime, end: busyIntervals.endTime })
        .from(busyIntervals)
        .where(inArray(busyIntervals.calendarId, stored.map((c) => c.id)))
    : [];
  return {
    calendars: stored,
    busyOf: (calendarId) => storedBusy.filter((b) => b.calendarId === calendarId).map((b) => ({ key: b.key, start: b.start.getTime(), end: b.end.getTime() })),
    own: new Set(own.flatMap((e) => [e.uid, e.eventId])),
  };
}

type Settled = Pick<CalendarConnectionRow, "status" | "lastError" | "lastSyncedAt" | "busyAsOf">;

/** Where each listed calendar's next read goes on from, where that moved. */
async function saveStates(tx: Db | Tx, stored: CalendarRow[], plan: SyncPlan): Promise<void> {
  for (const c of stored) {
    const next = plan.plans.get(c.externalId);
    if (!next || !plan.listedIds.has(c.externalId) || (next.state === c.syncState && next.syncedTo.getTime() === c.syncedTo?.getTime())) continue;
    await tx.update(calendars).set({ syncState: next.state, syncedTo: next.syncedTo }).where(eq(calendars.id, c.id));
  }
}

/** One calendar's busy rows brought to its plan. */
async function applyCalendarPlan(tx: Tx, calendarId: string, userId: string, plan: CalendarPlan): Promise<void> {
  if (plan.remove === "all") await tx.delete(busyIntervals).where(eq(busyIntervals.calendarId, calendarId));
  else if (plan.remove.length) await tx.delete(busyIntervals).where(and(eq(busyIntervals.calendarId, calendarId), inArray(busyIntervals.eventKey, plan.remove)));
  if (plan.removeUnkeyed) await tx.delete(busyIntervals).where(and(eq(busyIntervals.calendarId, calendarId), isNull(busyIntervals.eventKey)));
  if (plan.insert.length) {
    await tx.insert(busyIntervals).values(plan.insert.map((r) => ({ calendarId, userId, startTime: new Date(r.start), endTime: new Date(r.end), eventKey: r.key })));
  }
}

/** Calendars gone at the provider go, with their busy rows; renamed ones take the new name and write access. */
async function applyCalendarList(tx: Tx, stored: CalendarRow[], plan: SyncPlan): Promise<void> {
  const byExternal = new Map(stored.map((c) => [c.externalId, c]));
  if (plan.removed.length) await tx.delete(calendars).where(inArray(calendars.id, plan.removed.map((c) => c.id)));
  for (const c of plan.renamed) {
    // A calendar the account can no longer write to stops being the write target.
    const readOnly = !c.writable;
    await tx
      .update(calendars)
      .set({ name: c.name, readOnly, ...(readOnly ? { writeTarget: false } : {}) })
      .where(eq(calendars.id, byExternal.get(c.externalId)!.id));
  }
}

/** New calendars are stored with their first read's state and busy rows. */
async function addCalendars(tx: Tx, connection: CalendarConnectionRow, plan: SyncPlan): Promise<void> {
  for (const c of plan.added) {
    const read = plan.plans.get(c.externalId);
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
        ...(read ? { syncState: read.state, syncedTo: read.syncedTo } : {}),
      })
      .onConflictDoNothing()
      .returning();
    if (inserted && read) await applyCalendarPlan(tx, inserted.id, connection.userId, read);
  }
}

/** Everything the plan changes, in one transaction under the host's write door. */
async function writeChanges(tx: Tx, connection: CalendarConnectionRow, stored: CalendarRow[], plan: SyncPlan, settled: Settled): Promise<void> {
  await applyCalendarList(tx, stored, plan);
  await addCalendars(tx, connection, plan);
  for (const c of stored) {
    const read = plan.plans.get(c.externalId);
    if (read && plan.listedIds.has(c.externalId) && read.busyChanged) await applyCalendarPlan(tx, c.id, connection.userId, read);
  }
  await saveStates(tx, stored, plan);
  await tx.update(calendarConnections).set(settled).where(eq(calendarConnections.id, connection.id));
}

/**
 * Reads what changed in the connection's calendars now and stores it. A write of busy data goes
 * through the host's one door (writeForHost, under the booking lock), so the slot cache of the
 * host is dropped on every instance exactly when busy data changed.
 */
export async function syncConnection(db: Db, connectionId: string, now: number = Date.now()): Promise<SyncResult | undefined> {
  const target = await loadTarget(db, connectionId);
  if (!target) return undefined;
  const { connection } = target;
  const stored = await db.select().from(calendars).where(eq(calendars.connectionId, connection.id));

  let answer: ProviderRead;
  try {
    answer = await readProvider(db, target, stored, now);
  } catch (error) {
    return recordFailure(db, connection, error);
  }

  const plan = planSync(answer, await loadStoredSide(db, connection, stored));
  const settled: Settled = { status: "connected", lastError: null, lastSyncedAt: new Date(now), busyAsOf: new Date(now) };
  if (!plan.busyChanged && plan.added.length === 0 && plan.renamed.length === 0) {
    // Nothing the slots read has changed: the cache stays as it is; only where to go on from.
    await db.transaction(async (tx) => {
      await saveStates(tx, stored, plan);
      await tx.update(calendarConnections).set(settled).where(eq(calendarConnections.id, connection.id));
    });
    return { status: "connected", busyChanged: false };
  }
  await writeForHost(db, connection.userId, (tx) => writeChanges(tx, connection, stored, plan, settled), { lockBookings: true });
  return { status: "connected", busyChanged: plan.busyChanged };
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
