import "server-only";
import { and, eq, ne } from "drizzle-orm";
import { CalendarError, revokeConnectionGrant } from "@/lib/calendars";
import type { z } from "zod";
import type { Db } from "@/db";
import { calendarConnections, calendars, type UserRow } from "@/db/schema";
import { validationError } from "@/lib/errors";
import { log } from "@/lib/log";
import type { UpdateConnectionBody } from "@/lib/schemas/calendar";
import { writeForHost } from "@/lib/services/host-time/writes";
import { stopPushChannels } from "./push";
import { getConnectionForHostOrThrow, loadConnectionOrThrow, type ConnectionWithCalendars } from "./store";

/**
 * PATCH of the per-calendar flags. Choosing a write target clears it everywhere else for the
 * host (at most one, decisions §9; a partial unique index holds it too). Conflict checks change
 * what slots are offered, so the write goes through the host's door and drops the slot cache.
 */
export async function updateConnectionCalendars(
  db: Db,
  host: UserRow,
  connectionId: string,
  body: z.output<typeof UpdateConnectionBody>,
): Promise<ConnectionWithCalendars> {
  await getConnectionForHostOrThrow(db, host, connectionId);
  await writeForHost(db, host.id, async (tx) => {
    const owned = await tx.select({ id: calendars.id, readOnly: calendars.readOnly }).from(calendars).where(eq(calendars.connectionId, connectionId));
    const ownedById = new Map(owned.map((c) => [c.id, c]));
    const unknown = body.calendars.flatMap((c, i) => (ownedById.has(c.id) ? [] : [{ path: `calendars.${i}.id`, message: "No such calendar in this connection" }]));
    if (unknown.length) throw validationError(unknown);
    const readOnly = body.calendars.flatMap((c, i) =>
      c.writeTarget === true && ownedById.get(c.id)!.readOnly
        ? [{ path: `calendars.${i}.writeTarget`, message: "This calendar is read only: bookings cannot be written to it" }]
        : [],
    );
    if (readOnly.length) throw validationError(readOnly, "A read-only calendar cannot be the write target");
    const target = body.calendars.find((c) => c.writeTarget === true);
    if (target) {
      await tx.update(calendars).set({ writeTarget: false }).where(and(eq(calendars.userId, host.id), ne(calendars.id, target.id)));
    }
    for (const c of body.calendars) {
      const set = { ...(c.checkConflicts === undefined ? {} : { checkConflicts: c.checkConflicts }), ...(c.writeTarget === undefined ? {} : { writeTarget: c.writeTarget }) };
      if (Object.keys(set).length) await tx.update(calendars).set(set).where(eq(calendars.id, c.id));
    }
  });
  return loadConnectionOrThrow(db, host, connectionId);
}

/**
 * DELETE: the connection, its calendars, busy data and sealed credentials are gone (decisions §9),
 * and then the grant is revoked at the provider where it offers that (Google, §17). Revoking is
 * best effort: the disconnect stands whatever the provider answers. It is skipped while another
 * connection (of any host) holds the same account, since Google ends the app's whole grant for
 * the account, which would cut that connection off too.
 */
export async function deleteConnection(db: Db, host: UserRow, connectionId: string): Promise<void> {
  const connection = await getConnectionForHostOrThrow(db, host, connectionId);
  // The provider stops calling us (best effort: a failure is logged; a channel expires by itself).
  await stopPushChannels(db, connectionId).catch((err: unknown) => log.error({ err, connectionId }, "calendar push: could not stop the channels on disconnect"));
  await writeForHost(db, host.id, async (tx) => {
    await tx.delete(calendarConnections).where(and(eq(calendarConnections.id, connectionId), eq(calendarConnections.userId, host.id)));
  });
  const [shared] = await db
    .select({ id: calendarConnections.id })
    .from(calendarConnections)
    .where(and(eq(calendarConnections.provider, connection.provider), eq(calendarConnections.email, connection.email)))
    .limit(1);
  if (shared) return;
  try {
    await revokeConnectionGrant(connection);
  } catch (error) {
    // Never the error object itself: an HTTP client's error may carry the request URL, and the token with it.
    const detail = error instanceof CalendarError ? { kind: error.kind, httpStatus: error.status } : { errorType: error instanceof Error ? error.name : typeof error };
    log.warn({ connectionId, provider: connection.provider, ...detail }, "calendar disconnect: revoking the grant at the provider failed; disconnected anyway");
  }
}
