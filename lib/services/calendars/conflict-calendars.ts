import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { calendars, type EventTypeRow } from "@/db/schema";
import { validationError } from "@/lib/errors";

// Which calendars block an event type's times (decisions §21): a personal event type may name
// some of its host's calendars (`conflict_calendars`); null means every calendar marked
// `check_conflicts`. Slots, explain and the check at booking read the same choice. A calendar
// removed later simply drops out of the list: the stored ids are filtered when read, never trusted.

/** The event type's chosen calendars as stored (strings only), or null: every conflict-checking calendar. */
export function conflictCalendarsOf(eventType: Pick<EventTypeRow, "conflictCalendars">): string[] | null {
  const list: unknown = eventType.conflictCalendars;
  if (!Array.isArray(list)) return null;
  return list.filter((id): id is string => typeof id === "string");
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
