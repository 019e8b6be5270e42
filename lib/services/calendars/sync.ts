import "server-only";
import { and, asc, eq, inArray, lte, ne } from "drizzle-orm";
import type { Db } from "@/db";
import {
  bookingCalendarEvents,
  busyIntervals,
  calendarConnections,
  calendars,
  users,
  type CalendarConnectionRow,
  type CalendarRow,
} from "@/db/schema";
import { CalendarError, type BusyRange, type ExternalCalendar } from "@/lib/calendars";
import { connectionClient, recordConnectionFailure } from "./store";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { writeForHost } from "@/lib/services/schedule/host-writes";

// Busy-time sync: reads a connection's calendars and their busy time from the provider and keeps
// it in busy_intervals, where the slot engine's loader reads it. Slots never wait on a provider:
// they read only what the last good sync stored. A failed sync changes no busy data (the last
// known stays in force) and says what happened in the connection's status.

/** How often each connection is read again in the background (decisions §9: "a few minutes"). */
export const SYNC_INTERVAL_MS = 5 * 60_000;
const DAY = 86_400_000;
// Providers bound one free/busy question's span (Google answers at most a few months); the
// booking window reaches up to two years, so it is asked in slices.
const SLICE_MS = 60 * DAY;

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

const sameRanges = (a: { start: number; end: number }[], b: { start: number; end: number }[]) =>
  a.length === b.length && a.every((r, i) => r.start === b[i]!.start && r.end === b[i]!.end);

const byStart = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start - b.start || a.end - b.end;

/**
 * Reads the connection's calendars and busy time now and stores what changed. The write goes
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
  const to = now + (row.maxAdvanceDays + 2) * DAY;
  let listed: ExternalCalendar[];
  const busy = new Map<string, BusyRange[]>();
  try {
    const client = connectionClient(db, connection);
    listed = await client.listCalendars();
    for (let start = from; start < to; start += SLICE_MS) {
      const slice = await client.busy(
        listed.map((c) => c.externalId),
        { from: start, to: Math.min(to, start + SLICE_MS), timeZone: row.timezone },
      );
      for (const [id, ranges] of slice) busy.set(id, [...(busy.get(id) ?? []), ...ranges]);
    }
  } catch (error) {
    return recordFailure(db, connection, error);
  }

  // The events this service wrote for bookings are busy in the calendar too; the bookings
  // themselves already block their time, and a rescheduled booking must not be blocked by its
  // own old event. Providers that name events (CalDAV UID, Graph id) let us leave them out.
  const own = await db
    .select({ uid: bookingCalendarEvents.uid, eventId: bookingCalendarEvents.externalEventId })
    .from(bookingCalendarEvents)
    .innerJoin(calendars, eq(calendars.id, bookingCalendarEvents.calendarId))
    .where(eq(calendars.userId, connection.userId));
  const ownIds = new Set(own.flatMap((e) => [e.uid, e.eventId]));

  const stored = await db.select().from(calendars).where(eq(calendars.connectionId, connection.id));
  const storedBusy = stored.length
    ? await db
        .select({ calendarId: busyIntervals.calendarId, start: busyIntervals.startTime, end: busyIntervals.endTime })
        .from(busyIntervals)
        .where(inArray(busyIntervals.calendarId, stored.map((c) => c.id)))
    : [];

  const byExternal = new Map(stored.map((c) => [c.externalId, c]));
  const added = listed.filter((c) => !byExternal.has(c.externalId));
  const listedIds = new Set(listed.map((c) => c.externalId));
  const removed = stored.filter((c) => !listedIds.has(c.externalId));
  const renamed = listed.filter((c) => {
    const old = byExternal.get(c.externalId);
    return old !== undefined && (old.name !== c.name || old.readOnly !== !c.writable);
  });
  // Per stored calendar: the new busy list when the provider answered for it and it differs.
  const replace = new Map<CalendarRow, { start: number; end: number }[]>();
  for (const calendar of stored) {
    const fresh = busy.get(calendar.externalId);
    if (fresh === undefined || !listedIds.has(calendar.externalId)) continue;
    const next = fresh.filter((r) => !(r.eventId && ownIds.has(r.eventId)) && r.start < r.end).map((r) => ({ start: r.start, end: r.end })).sort(byStart);
    const old = storedBusy
      .filter((b) => b.calendarId === calendar.id)
      .map((b) => ({ start: b.start.getTime(), end: b.end.getTime() }))
      .sort(byStart);
    if (!sameRanges(next, old)) replace.set(calendar, next);
  }
  const addedBusy = added.some((c) => (busy.get(c.externalId) ?? []).length > 0);
  const busyChanged = replace.size > 0 || removed.length > 0 || addedBusy;
  const settled = { status: "connected" as const, lastError: null, lastSyncedAt: new Date(now), busyAsOf: new Date(now) };

  if (!busyChanged && added.length === 0 && renamed.length === 0) {
    // Nothing the slots read has changed: the cache stays as it is.
    await db.update(calendarConnections).set(settled).where(eq(calendarConnections.id, connection.id));
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
      const insertRows = (calendarId: string, ranges: { start: number; end: number }[]) =>
        ranges.length
          ? tx.insert(busyIntervals).values(ranges.map((r) => ({ calendarId, userId: connection.userId, startTime: new Date(r.start), endTime: new Date(r.end) })))
          : Promise.resolve();
      for (const c of added) {
        const [inserted] = await tx
          .insert(calendars)
          .values({ id: newId("cld"), connectionId: connection.id, userId: connection.userId, externalId: c.externalId, name: c.name, isPrimary: c.isPrimary, readOnly: !c.writable })
          .onConflictDoNothing()
          .returning();
        const ranges = (busy.get(c.externalId) ?? []).filter((r) => !(r.eventId && ownIds.has(r.eventId)) && r.start < r.end);
        if (inserted) await insertRows(inserted.id, ranges);
      }
      for (const [calendar, ranges] of replace) {
        await tx.delete(busyIntervals).where(eq(busyIntervals.calendarId, calendar.id));
        await insertRows(calendar.id, ranges);
      }
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
    .set({ syncDueAt: new Date(now + SYNC_INTERVAL_MS) })
    .where(inArray(calendarConnections.id, due))
    .returning({ id: calendarConnections.id });
  return claimed.map((c) => c.id);
}
