import "server-only";
import { and, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { eventTypes, teamMembers, users, type EventTypeRow, type UserRow } from "@/db/schema";
import { validationError } from "@/lib/errors";
import { activeMemberIds } from "./store";

// Who hosts a team event type (decisions §15): only the team's active members, in the order
// they joined; a member who leaves stops hosting (remove-member.ts), and one invited hosts nothing.

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

/**
 * The hosts to store: the given userIds when each is an active member (400 at `hostIds`
 * otherwise), else every active member; in the order the members joined. Read under the team's
 * lock, so nobody leaves between this check and the write.
 */
export async function hostsToStore(tx: Tx, teamId: string, given: string[] | undefined): Promise<string[]> {
  const active = await activeMemberIds(tx, teamId);
  if (!given) return active;
  const strangers = given.filter((id) => !active.includes(id));
  if (strangers.length > 0) {
    throw validationError([{ path: "hostIds", message: `Only active members of the team can host; not one: ${strangers.join(", ")}` }]);
  }
  return active.filter((id) => given.includes(id));
}

/**
 * Which of `ids` the user hosts: their own personal event types, and team ones that list them
 * as a host while they are an active member (the same rule as activeHostsOf). Hidden event types
 * count: their bookings can still be moved and cancelled.
 */
export async function eventTypesHostedBy(db: Db | Tx, userId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: eventTypes.id })
    .from(eventTypes)
    .leftJoin(teamMembers, and(eq(teamMembers.teamId, eventTypes.teamId), eq(teamMembers.userId, userId), eq(teamMembers.status, "active")))
    .where(
      and(
        inArray(eventTypes.id, ids),
        or(eq(eventTypes.userId, userId), and(isNotNull(teamMembers.userId), sql`${eventTypes.hostIds} @> jsonb_build_array(${userId}::text)`)),
      ),
    );
  return new Set(rows.map((r) => r.id));
}
