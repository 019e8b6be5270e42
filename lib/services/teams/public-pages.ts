import "server-only";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { eventTypes, teamMembers, teams, users, type EventTypeRow, type TeamRow, type UserRow } from "@/db/schema";
import { notFound } from "@/lib/errors";

// What a guest may see of a team (decisions §15): the lookups behind /team/{teamSlug}[/{slug}]
// and /api/v1/public/teams/…. Only active event types exist here; anything else is 404.

export type PublicTeamEventType = { team: TeamRow; eventType: EventTypeRow; hosts: UserRow[] };

/**
 * The hosts of a team event type: its hostIds that are active members now, in the type's order.
 * A member who left or was never accepted hosts nothing.
 */
export async function activeHostsOf(db: Db | Tx, eventType: EventTypeRow): Promise<UserRow[]> {
  if (!eventType.teamId || eventType.hostIds.length === 0) return [];
  const rows = await db
    .select({ user: users })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(eq(teamMembers.teamId, eventType.teamId), eq(teamMembers.status, "active"), inArray(teamMembers.userId, eventType.hostIds)));
  const order = new Map(eventType.hostIds.map((id, i) => [id, i]));
  return rows.map((r) => r.user).sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}

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
