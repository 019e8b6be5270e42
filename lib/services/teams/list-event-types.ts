import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { eventTypes, type EventTypeRow, type TeamMemberRow, type TeamRow, type UserRow } from "@/db/schema";
import { notFound } from "@/lib/errors";
import type { TeamEventType } from "./event-type-hosts";
import { memberOrNotFound, requireActive } from "./store";

/** The team's event types, inactive ones included, oldest first: for its active members. */
export async function listTeamEventTypes(db: Db, user: UserRow, teamId: string): Promise<{ team: TeamRow; eventTypes: EventTypeRow[] }> {
  const membership = await memberOrNotFound(db, user, teamId);
  requireActive(membership);
  const rows = await db.select().from(eventTypes).where(eq(eventTypes.teamId, teamId)).orderBy(asc(eventTypes.createdAt), asc(eventTypes.id));
  return { team: membership.team, eventTypes: rows };
}

/** One team event type, for the team's active members; 404 for an id of another team or a personal one. */
export async function getTeamEventType(db: Db, user: UserRow, teamId: string, eventTypeId: string): Promise<TeamEventType & { role: TeamMemberRow["role"] }> {
  const membership = await memberOrNotFound(db, user, teamId);
  requireActive(membership);
  const [row] = await db
    .select()
    .from(eventTypes)
    .where(and(eq(eventTypes.id, eventTypeId), eq(eventTypes.teamId, teamId)))
    .limit(1);
  if (!row) throw notFound("Event type");
  return { eventType: row, team: membership.team, role: membership.member.role };
}
