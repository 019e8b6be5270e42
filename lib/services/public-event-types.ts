import { and, asc, eq } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { eventTypes, users, type EventTypeRow, type UserRow } from "@/db/schema";
import { notFound } from "@/lib/errors";

// What a guest may see of a host: the lookups behind the public paths. Only active event types
// exist here; anything else is 404, indistinguishable from a name that was never taken.

export type PublicEventType = { host: UserRow; eventType: EventTypeRow };

/** The host and active event type behind /{username}/{slug}, or 404 for anything else. */
export async function getPublicEventTypeOrThrow(db: Db | Tx, username: string, slug: string): Promise<PublicEventType> {
  const [row] = await db
    .select({ host: users, eventType: eventTypes })
    .from(eventTypes)
    .innerJoin(users, eq(users.id, eventTypes.userId))
    .where(and(eq(users.username, username), eq(eventTypes.slug, slug), eq(eventTypes.isActive, true)))
    .limit(1);
  if (!row) throw notFound("Event type");
  return row;
}

/** The host behind /{username} and their active event types (404 for an unknown username). */
export async function getPublicHostOrThrow(db: Db, username: string): Promise<{ host: UserRow; eventTypes: EventTypeRow[] }> {
  const [host] = await db.select().from(users).where(eq(users.username, username)).limit(1);
  if (!host) throw notFound("Host");
  const rows = await db
    .select()
    .from(eventTypes)
    .where(and(eq(eventTypes.userId, host.id), eq(eventTypes.isActive, true)))
    .orderBy(asc(eventTypes.createdAt), asc(eventTypes.id));
  return { host, eventTypes: rows };
}
