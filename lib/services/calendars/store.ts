import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { calendarConnections, calendars, type CalendarConnectionRow, type CalendarRow, type UserRow } from "@/db/schema";
import { notFound } from "@/lib/errors";

// Reads of a host's calendar connections, always scoped to the host: another host's connection
// is "not found" (decisions §8), never "forbidden".

export type ConnectionWithCalendars = { connection: CalendarConnectionRow; calendars: CalendarRow[] };

export async function getConnectionForHostOrThrow(db: Db | Tx, host: UserRow, connectionId: string): Promise<CalendarConnectionRow> {
  const [row] = await db
    .select()
    .from(calendarConnections)
    .where(and(eq(calendarConnections.id, connectionId), eq(calendarConnections.userId, host.id)))
    .limit(1);
  if (!row) throw notFound("Calendar connection");
  return row;
}

/** The connections given (all of the host's when none are), each with its calendars, oldest first. */
export async function loadConnections(db: Db | Tx, hostId: string, connectionIds?: string[]): Promise<ConnectionWithCalendars[]> {
  const connections = await db
    .select()
    .from(calendarConnections)
    .where(and(eq(calendarConnections.userId, hostId), connectionIds ? inArray(calendarConnections.id, connectionIds) : undefined))
    .orderBy(asc(calendarConnections.createdAt), asc(calendarConnections.id));
  if (connections.length === 0) return [];
  const rows = await db
    .select()
    .from(calendars)
    .where(inArray(calendars.connectionId, connections.map((c) => c.id)))
    .orderBy(asc(calendars.name), asc(calendars.id));
  return connections.map((connection) => ({ connection, calendars: rows.filter((c) => c.connectionId === connection.id) }));
}

export async function loadConnectionOrThrow(db: Db | Tx, host: UserRow, connectionId: string): Promise<ConnectionWithCalendars> {
  await getConnectionForHostOrThrow(db, host, connectionId);
  const [found] = await loadConnections(db, host.id, [connectionId]);
  if (!found) throw notFound("Calendar connection");
  return found;
}
