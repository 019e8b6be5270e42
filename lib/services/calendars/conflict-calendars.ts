import "server-only";
import { and, asc, eq, inArray, isNull, lt, ne, or } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { calendarConnections, calendars, type CalendarConnectionRow, type EventTypeRow } from "@/db/schema";
import { validationError } from "@/lib/errors";
import { conflictCalendarsOf as chosenCalendarsOf } from "@/lib/services/host-time/load";

// Which calendars block an event type's times (decisions §21): a personal event type may name
// some of its host's calendars (`conflict_calendars`); null means every calendar marked
// `check_conflicts`. Slots, explain and the check at booking read the same choice. A calendar
// removed later simply drops out of the list: the stored ids are filtered when read, never trusted.

/** The event type's chosen calendars as stored (strings only), or null: every conflict-checking calendar. */
export function conflictCalendarsOf(eventType: Pick<EventTypeRow, "conflictCalendars">): string[] | null {
  const chosen = chosenCalendarsOf(eventType);
  return chosen === null ? null : [...chosen];
}

/**
 * The ids, deduplicated, if every one is a calendar of the host; else 400 at `conflictCalendars`.
 * Another host's calendar gets the same words as an unknown id, so nothing of theirs is told.
 */
export async function ownCalendarIds(tx: Db | Tx, hostId: string, ids: readonly string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const found = await tx
    .select({ id: calendars.id })
    .from(calendars)
    .where(and(eq(calendars.userId, hostId), inArray(calendars.id, unique)));
  const known = new Set(found.map((r) => r.id));
  const unknown = unique.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    const names = unknown.map((id) => `"${id}"`).join(", ");
    throw validationError([
      { path: "conflictCalendars", message: `${unknown.length === 1 ? "No calendar of yours has the id" : "No calendars of yours have the ids"} ${names}: choose among your connected calendars` },
    ]);
  }
  return unique;
}

/**
 * The rows with their `conflictCalendars` naming only calendars their host still has (one
 * statement for all of them, none when no row names any).
 */
export async function withLiveConflictCalendars<T extends Pick<EventTypeRow, "conflictCalendars" | "userId">>(db: Db | Tx, rows: T[]): Promise<T[]> {
  const named = [...new Set(rows.flatMap((r) => conflictCalendarsOf(r) ?? []))];
  if (named.length === 0) return rows;
  const found = await db.select({ id: calendars.id, userId: calendars.userId }).from(calendars).where(inArray(calendars.id, named));
  const live = new Set(found.map((c) => `${c.userId}\u0000${c.id}`));
  return rows.map((r) => {
    const list = conflictCalendarsOf(r);
    return list === null ? r : { ...r, conflictCalendars: list.filter((id) => live.has(`${r.userId}\u0000${id}`)) };
  });
}

/** A connection whose busy data may be out of date, as explain notes it beside its reasons. */
export type StaleCalendarNote = {
  connectionId: string;
  provider: CalendarConnectionRow["provider"];
  email: string;
  status: CalendarConnectionRow["status"];
  brokenSince: Date | null;
  busyAsOf: Date | null;
  /** What people call it: its primary calendar's name. */
  name: string;
};

/**
 * The host's connections with a calendar that counts for the event type (its choice, else those
 * marked check_conflicts) whose busy data may be out of date at `now`: broken (error,
 * reauth_required), or last matched before `freshSince`. So explain can say "busy data from Work
 * is old" even when a start looks bookable.
 */
export async function staleCalendarNotes(db: Db | Tx, hostId: string, eventType: Pick<EventTypeRow, "conflictCalendars">, freshSince: number): Promise<StaleCalendarNote[]> {
  const chosen = conflictCalendarsOf(eventType);
  if (chosen?.length === 0) return [];
  const rows = await db
    .select({ connection: calendarConnections, calendarId: calendars.id, name: calendars.name, isPrimary: calendars.isPrimary, counts: calendars.checkConflicts })
    .from(calendarConnections)
    .innerJoin(calendars, eq(calendars.connectionId, calendarConnections.id))
    .where(
      and(
        eq(calendarConnections.userId, hostId),
        or(ne(calendarConnections.status, "connected"), isNull(calendarConnections.busyAsOf), lt(calendarConnections.busyAsOf, new Date(freshSince))),
      ),
    )
    .orderBy(asc(calendarConnections.createdAt), asc(calendars.name), asc(calendars.id));
  const notes = new Map<string, StaleCalendarNote>();
  const counting = new Set<string>();
  for (const r of rows) {
    const c = r.connection;
    const note = notes.get(c.id) ?? { connectionId: c.id, provider: c.provider, email: c.email, status: c.status, brokenSince: c.brokenSince, busyAsOf: c.busyAsOf, name: r.name };
    if (r.isPrimary) note.name = r.name;
    if (chosen === null ? r.counts : chosen.includes(r.calendarId)) counting.add(c.id);
    notes.set(c.id, note);
  }
  return [...notes.values()].filter((n) => counting.has(n.connectionId));
}
