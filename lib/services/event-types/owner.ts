import "server-only";
import { eq, type SQL } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { pgConstraint, pgErrorCode } from "@/db/client";
import { eventTypes, type EventTypeRow, type TeamMemberRow, type TeamRow, type UserRow } from "@/db/schema";
import { AppError, validationError } from "@/lib/errors";
import { writeForHosts, type TouchHosts } from "@/lib/services/host-time/writes";
import { memberOrNotFound, requireActive, requireOwner, writeTeam } from "@/lib/services/teams/store";

// One model (issue 38): a personal event type is a team of one. Whose event types a dashboard
// request is about is resolved here once, and every event-type verb takes it: the host's own
// (/me/event-types) or a team's they belong to (/me/teams/{teamId}/event-types). What differs
// between the two is said in this file and nowhere else: who may read and write (the host; the
// team's active members and owners), the lock a write takes (the host's; the team's row), the
// columns that say whose a row is, and the words of a slug conflict.

/** Whose event types: the signed-in host's own (teamId null), or a team's the host belongs to. */
export type EventTypeOwner = { user: UserRow; teamId: string | null };

/** An event type and its team (null: a personal one; its host is the owner). */
export type OwnedEventType = { eventType: EventTypeRow; team: TeamRow | null };

/** What a verb reads under: the owner's rows, its team (if any) and the asker's role in it. */
export type OwnerScope = {
  team: TeamRow | null;
  /** The asker's role: "owner" of their own event types, their membership's role in a team. */
  role: TeamMemberRow["role"];
  /** Keeps a statement to the owner's event types. */
  owns: SQL;
  /** The columns of a new row that say whose it is. */
  columns: { userId: string } | { teamId: string };
};

/** A write's scope: also the hosts whose slots it changed, found while writing. */
export type OwnerWriteScope = OwnerScope & { touch: TouchHosts };

function personalScope(user: UserRow): OwnerScope {
  return { team: null, role: "owner", owns: eq(eventTypes.userId, user.id), columns: { userId: user.id } };
}

function teamScope(team: TeamRow, role: TeamMemberRow["role"]): OwnerScope {
  return { team, role, owns: eq(eventTypes.teamId, team.id), columns: { teamId: team.id } };
}

/** The scope to read the owner's event types in: a team's are for its active members (404 to anyone else). */
export async function readScope(db: Db | Tx, owner: EventTypeOwner): Promise<OwnerScope> {
  if (owner.teamId === null) return personalScope(owner.user);
  const membership = await memberOrNotFound(db, owner.user, owner.teamId);
  requireActive(membership);
  return teamScope(membership.team, membership.member.role);
}

/**
 * Runs a change of the owner's event types through the hosts' write door: the host's own under
 * their lock, a team's under the team's row lock and for its active owners only (its hosts
 * cannot change while it is saved). The hosts a write touches have their slot caches dropped.
 */
export function writeAsOwner<T>(
  db: Db,
  owner: EventTypeOwner,
  work: (tx: Tx, scope: OwnerWriteScope) => Promise<T>,
  options: { lockBookings?: boolean } = {},
): Promise<T> {
  const { user, teamId } = owner;
  if (teamId === null) return writeForHosts(db, [user.id], (tx, touch) => work(tx, { ...personalScope(user), touch }), options);
  return writeTeam(db, user, teamId, (tx, membership, touch) => {
    requireOwner(membership);
    return work(tx, { ...teamScope(membership.team, membership.member.role), touch });
  });
}

/**
 * What a failed write of an event type means to the person: a slug the owner already uses (409 at
 * `slug`, unique per host and per team), a schedule deleted between its check and the write.
 */
export function eventTypeWriteFailed(error: unknown, owner: EventTypeOwner, slug: string | undefined): never {
  if (pgErrorCode(error) === "23505" && /^event_types_(user|team)_slug_key$/.test(pgConstraint(error) ?? "")) {
    const message = owner.teamId === null ? `You already have an event type with the slug "${slug}"` : `This team already has an event type with the slug "${slug}"`;
    throw new AppError("conflict", message, { field: "slug" });
  }
  if (pgErrorCode(error) === "23503" && pgConstraint(error) === "event_types_schedule_id_schedules_id_fk") {
    throw validationError([{ path: "scheduleId", message: "No schedule of yours has this id" }]);
  }
  throw error;
}

/** The host's own event types. */
export function hostOwner(user: UserRow): EventTypeOwner {
  return { user, teamId: null };
}

/** A team's event types, as the host (a member of it) asks. */
export function teamOwner(user: UserRow, teamId: string): EventTypeOwner {
  return { user, teamId };
}
