import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { eventTypes, teams, users, type EventTypeRow, type TeamRow, type UserRow } from "@/db/schema";
import { notFound } from "@/lib/errors";
import { activeHostsOf } from "@/lib/services/teams/hosts";

// What a guest may see of a host or a team: the lookups behind the public paths (/{username},
// /{username}/{slug}, /team/{teamSlug}, /team/{teamSlug}/{slug} and their /api/v1/public twins).
// Only active event types exist here; anything else is 404, indistinguishable from a name that
// was never taken.

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

export type PublicTeamEventType = { team: TeamRow; eventType: EventTypeRow; hosts: UserRow[] };

/** The team, its active event type behind /team/{teamSlug}/{slug} and its hosts, or 404. */
export async function getPublicTeamEventTypeOrThrow(db: Db | Tx, teamSlug: string, slug: string): Promise<PublicTeamEventType> {
  const [row] = await db
    .select({ team: teams, eventType: eventTypes })
    .from(eventTypes)
    .innerJoin(teams, eq(teams.id, eventTypes.teamId))
    .where(and(eq(teams.slug, teamSlug), eq(eventTypes.slug, slug), eq(eventTypes.isActive, true)))
    .limit(1);
  if (!row) throw notFound("Event type");
  return { ...row, hosts: await activeHostsOf(db, row.eventType) };
}

/** The team behind /team/{teamSlug} and its active event types (404 for an unknown slug). */
export async function getPublicTeamOrThrow(db: Db, teamSlug: string): Promise<{ team: TeamRow; eventTypes: EventTypeRow[] }> {
  const [team] = await db.select().from(teams).where(eq(teams.slug, teamSlug)).limit(1);
  if (!team) throw notFound("Team");
  const rows = await db
    .select()
    .from(eventTypes)
    .where(and(eq(eventTypes.teamId, team.id), eq(eventTypes.isActive, true)))
    .orderBy(asc(eventTypes.createdAt), asc(eventTypes.id));
  return { team, eventTypes: rows };
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
