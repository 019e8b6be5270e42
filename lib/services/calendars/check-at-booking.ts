import "server-only";
import { and, eq, gte, inArray, isNull, lt, lte, ne, or } from "drizzle-orm";
import type { Db } from "@/db";
import { bookingCalendarEvents, bookings, busyIntervals, calendarConnections, calendars, users, type CalendarConnectionRow } from "@/db/schema";
import { CalendarError, type BusyRange } from "@/lib/calendars";
import { getConfig } from "@/lib/config";
import { log } from "@/lib/log";
import { writeForHost } from "@/lib/services/host-time/writes";
import { connectionClient, connectionStatusAfter } from "./store";

// The check at booking (decisions §17). Busy data is as old as the connection's last good sync;
// when that is older than CALENDAR_FRESH_S, a booking (or a move) asks the provider about just
// the range it would block, before its transaction takes the hosts' locks, so a slow provider
// holds up only this guest and for at most CALENDAR_CHECK_MS. Busy: the range goes into the
// stored busy data (the hosts' slot caches drop) and the booking is refused. No answer: the
// booking goes ahead on what is stored, and the connection says so until the next good sync.
//
// A range check proves only the range, so it never moves `busy_as_of` (which says that *all*
// stored busy data matched the provider at that time); the background sync alone does.

/** The stale connections of the hosts, each with its conflict-checking calendars and its host's zone. */
type StaleConnection = { connection: CalendarConnectionRow; timeZone: string; calendars: { id: string; externalId: string; name: string }[] };

/** What the hosts' calendars said about the range. */
export type CalendarCheck = {
  /** Hosts at least one of whose calendars is busy in the range (the range is now stored as busy). */
  busyHostIds: Set<string>;
  /** How many connections were asked (0: every host's data was fresh, or they have none). */
  asked: number;
};

const NOTHING: CalendarCheck = { busyHostIds: new Set(), asked: 0 };

/**
 * The conflict-checking calendars of the hosts' connections whose busy data is older than
 * `freshSince` (or was never read), leaving out connections that need the host to connect again.
 * `calendarIds`: the event type's own choice (decisions §21), in place of those marked
 * check_conflicts; null: those marked. One statement; empty for hosts without connections.
 */
async function staleConnectionsOf(db: Db, hostIds: readonly string[], freshSince: number, calendarIds: readonly string[] | null): Promise<StaleConnection[]> {
  const counts = calendarIds === null ? eq(calendars.checkConflicts, true) : inArray(calendars.id, [...calendarIds]);
  const rows = await db
    .select({ connection: calendarConnections, timeZone: users.timezone, calendarId: calendars.id, externalId: calendars.externalId, name: calendars.name })
    .from(calendarConnections)
    .innerJoin(users, eq(users.id, calendarConnections.userId))
    .innerJoin(calendars, and(eq(calendars.connectionId, calendarConnections.id), counts))
    .where(
      and(
        inArray(calendarConnections.userId, [...hostIds]),
        ne(calendarConnections.status, "reauth_required"),
        or(isNull(calendarConnections.busyAsOf), lt(calendarConnections.busyAsOf, new Date(freshSince))),
      ),
    );
  const byId = new Map<string, StaleConnection>();
  for (const r of rows) {
    let stale = byId.get(r.connection.id);
    if (!stale) byId.set(r.connection.id, (stale = { connection: r.connection, timeZone: r.timeZone, calendars: [] }));
    stale.calendars.push({ id: r.calendarId, externalId: r.externalId, name: r.name });
  }
  return [...byId.values()];
}

/**
 * The events this service wrote into the host's calendars (decisions §9): by provider id and UID
 * where the provider names events, and by time (the booking's start to end, as written) for
 * free/busy answers that name nothing (Google). A booking's own event never blocks it, nor its move.
 */
async function ownEventsOf(db: Db, hostId: string, range: { from: number; to: number }) {
  const rows = await db
    .select({ uid: bookingCalendarEvents.uid, eventId: bookingCalendarEvents.externalEventId, start: bookings.startTime, end: bookings.endTime, status: bookings.status })
    .from(bookingCalendarEvents)
    .innerJoin(bookings, eq(bookings.id, bookingCalendarEvents.bookingId))
    .where(eq(bookingCalendarEvents.hostId, hostId));
  return {
    ids: new Set(rows.flatMap((r) => [r.uid, r.eventId])),
    times: rows
      .filter((r) => r.status !== "cancelled" && r.start.getTime() < range.to && range.from < r.end.getTime())
      .map((r) => ({ start: r.start.getTime(), end: r.end.getTime() })),
  };
}

/** `range` without the parts `holes` cover. */
function subtract(range: { start: number; end: number }, holes: { start: number; end: number }[]): { start: number; end: number }[] {
  let pieces = [range];
  for (const hole of holes) {
    pieces = pieces.flatMap((p) =>
      hole.end <= p.start || p.end <= hole.start
        ? [p]
        : [
            ...(p.start < hole.start ? [{ start: p.start, end: hole.start }] : []),
            ...(hole.end < p.end ? [{ start: hole.end, end: p.end }] : []),
          ],
    );
  }
  return pieces;
}

/** "1.5 s", "300 ms". */
const duration = (ms: number) => (ms >= 1000 ? `${Number((ms / 1000).toFixed(1))} s` : `${ms} ms`);

/** "busy data from 3 min before was used", for the connection's sentence. */
function knownData(busyAsOf: Date | null, now: number): string {
  if (!busyAsOf) return "no busy data had been read from it yet";
  const seconds = Math.max(0, Math.round((now - busyAsOf.getTime()) / 1000));
  const age = seconds < 120 ? `${seconds} s` : seconds < 2 * 3600 ? `${Math.round(seconds / 60)} min` : seconds < 2 * 86_400 ? `${Math.round(seconds / 3600)} h` : `${Math.round(seconds / 86_400)} days`;
  return `busy data from ${age} before was used`;
}

type Outcome = { kind: "answered"; busy: Map<string, BusyRange[]> } | { kind: "failed"; error: unknown } | { kind: "timeout" };

/**
 * Asks the providers of the hosts' stale connections whether [from, to) is busy, all at once and
 * within CALENDAR_CHECK_MS, outside any transaction. `staleKnown: false` says the caller already
 * knows none of the hosts has stale busy data (the personal booking folds that into its first
 * read), so nothing is queried. `calendarIds`: the event type's chosen calendars (its
 * conflictCalendarsOf; a personal event type's, so of its one host); null or absent: every
 * calendar marked check_conflicts.
 */
export async function checkCalendarsAtBooking(
  db: Db,
  args: { hostIds: readonly string[]; from: number; to: number; now: number; staleKnown?: boolean; calendarIds?: readonly string[] | null },
): Promise<CalendarCheck> {
  const calendarIds = args.calendarIds ?? null;
  if (args.staleKnown === false || args.hostIds.length === 0 || calendarIds?.length === 0) return NOTHING;
  const { from, to, now } = args;
  const { calendarFreshS, calendarCheckMs } = getConfig();
  const stale = await staleConnectionsOf(db, args.hostIds, now - calendarFreshS * 1000, calendarIds);
  if (stale.length === 0) return NOTHING;

  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: "timeout" }), calendarCheckMs);
  });
  // Each request settles into an outcome (never a rejection); one left behind by the deadline
  // finishes later on its own and its answer is dropped.
  const ask = async (s: StaleConnection): Promise<Outcome> => {
    try {
      return { kind: "answered", busy: await connectionClient(db, s.connection).busy(s.calendars.map((c) => c.externalId), { from, to, timeZone: s.timeZone }) };
    } catch (error) {
      return { kind: "failed", error };
    }
  };
  const outcomes = await Promise.all(stale.map((s) => Promise.race([ask(s), deadline])));
  clearTimeout(timer);

  const busyHostIds = new Set<string>();
  await Promise.all(
    stale.map(async (s, i) => {
      const outcome = outcomes[i]!;
      const { connection } = s;
      if (outcome.kind !== "answered") return markUnchecked(db, s, outcome, now, calendarCheckMs);
      const silent = s.calendars.filter((c) => !outcome.busy.has(c.externalId));
      const found = s.calendars.flatMap((c) =>
        (outcome.busy.get(c.externalId) ?? []).filter((r) => r.start < to && from < r.end && r.start < r.end).map((r) => ({ calendarId: c.id, ...r })),
      );
      let busy: { calendarId: string; start: number; end: number }[] = [];
      if (found.length > 0) {
        const own = await ownEventsOf(db, connection.userId, { from, to });
        busy = found
          .filter((r) => !(r.eventId && own.ids.has(r.eventId)))
          .flatMap((r) => (r.eventId ? [r] : subtract(r, own.times).map((p) => ({ ...r, ...p }))))
          // Only the range was asked about, so only the range is stored; the next sync reads the rest.
          .map((r) => ({ calendarId: r.calendarId, start: Math.max(r.start, from), end: Math.min(r.end, to) }))
          .filter((r) => r.start < r.end);
      }
      if (busy.length > 0) {
        busyHostIds.add(connection.userId);
        await storeFound(db, connection, busy, { from, to }, now);
      }
      if (silent.length > 0) {
        await markUnchecked(db, s, { kind: "failed", error: new CalendarError("unavailable", `No answer for ${silent.map((c) => `“${c.name}”`).join(", ")}`) }, now, calendarCheckMs);
      }
    }),
  );
  return { busyHostIds, asked: stale.length };
}

/**
 * What the check found goes into the stored busy data through the host's write door (so every
 * instance drops the host's slot cache), and the connection is due for a sync at once, which
 * reads the whole calendar again and replaces these ranges.
 */
async function storeFound(db: Db, connection: CalendarConnectionRow, busy: { calendarId: string; start: number; end: number }[], range: { from: number; to: number }, now: number) {
  const calendarIds = [...new Set(busy.map((b) => b.calendarId))];
  await writeForHost(
    db,
    connection.userId,
    async (tx) => {
      // What an earlier check stored for the same range is replaced, not repeated.
      await tx
        .delete(busyIntervals)
        .where(
          and(
            inArray(busyIntervals.calendarId, calendarIds),
            isNull(busyIntervals.eventKey),
            gte(busyIntervals.startTime, new Date(range.from)),
            lte(busyIntervals.endTime, new Date(range.to)),
          ),
        );
      await tx.insert(busyIntervals).values(busy.map((b) => ({ calendarId: b.calendarId, userId: connection.userId, startTime: new Date(b.start), endTime: new Date(b.end), eventKey: null })));
      await tx.update(calendarConnections).set({ syncDueAt: new Date(now) }).where(eq(calendarConnections.id, connection.id));
    },
    { lockBookings: true },
  );
  log.info({ connectionId: connection.id, provider: connection.provider, ranges: busy.length }, "calendar busy at booking time: booking refused, sync due");
}

/** The booking went ahead without the provider's answer: the connection says so until a good sync. */
async function markUnchecked(db: Db, stale: StaleConnection, outcome: Exclude<Outcome, { kind: "answered" }>, now: number, checkMs: number) {
  const { connection } = stale;
  const known = knownData(connection.busyAsOf, now);
  let status: "error" | "reauth_required" = "error";
  let sentence: string;
  if (outcome.kind === "timeout") {
    sentence = `Did not answer within ${duration(checkMs)} when a booking checked it (${known})`;
    log.warn({ connectionId: connection.id, provider: connection.provider, waitedMs: checkMs }, "calendar check at booking timed out; booking went ahead on stored busy data");
  } else {
    const after = connectionStatusAfter(outcome.error);
    status = after.status;
    sentence = `Could not be read when a booking checked it: ${after.message.replace(/\.$/, "")} (${known})`;
    const error = outcome.error;
    log.warn(
      error instanceof CalendarError
        ? { connectionId: connection.id, provider: connection.provider, kind: error.kind, httpStatus: error.status }
        : { connectionId: connection.id, provider: connection.provider, errorName: error instanceof Error ? error.name : typeof error },
      "calendar check at booking failed; booking went ahead on stored busy data",
    );
  }
  await db
    .update(calendarConnections)
    .set({ status, lastError: sentence })
    .where(and(eq(calendarConnections.id, connection.id), ne(calendarConnections.status, "reauth_required")));
}
