import "server-only";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { calendarConnections, calendars, type CalendarConnectionRow, type CalendarRow, type UserRow } from "@/db/schema";
import { CalendarError, clientForConnection, type CalendarClient } from "@/lib/calendars";
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

/** A provider client for the connection, storing the tokens it obtains as it works. */
export function connectionClient(db: Db, connection: CalendarConnectionRow): CalendarClient {
  const mine = eq(calendarConnections.id, connection.id);
  return clientForConnection(connection, {
    saveAccessToken: async (sealed, expiresAt) => {
      await db.update(calendarConnections).set({ accessTokenEncrypted: sealed, accessTokenExpiresAt: expiresAt }).where(mine);
    },
    saveCredentials: async (sealed) => {
      await db.update(calendarConnections).set({ credentialsEncrypted: sealed }).where(mine);
    },
  });
}

/**
 * What a failed provider call means for the connection: a refused grant or password (auth) needs
 * the host to connect again (reauth_required: syncs and writes stop trying); anything else is an
 * error the next sync may clear.
 */
export function connectionStatusAfter(error: unknown): { status: "error" | "reauth_required"; message: string } {
  if (error instanceof CalendarError) {
    return { status: error.kind === "auth" ? "reauth_required" : "error", message: error.message };
  }
  return { status: "error", message: "The calendar could not be read (an unexpected error; see the service log)" };
}

/** Records a failed provider call on the connection (connectionStatusAfter). */
export async function recordConnectionFailure(db: Db, connectionId: string, error: unknown): Promise<"error" | "reauth_required"> {
  const { status, message } = connectionStatusAfter(error);
  await db.update(calendarConnections).set({ status, lastError: message }).where(eq(calendarConnections.id, connectionId));
  return status;
}
