import "server-only";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { teamMembers, teams, users, type TeamMemberRow, type TeamRow, type UserRow } from "@/db/schema";
import type { TeamMemberView } from "@/lib/dto";
import { AppError, notFound } from "@/lib/errors";
import { writeForHosts, type TouchHosts } from "@/lib/services/host-time/writes";
import { liveMember } from "./invitation-rules";

// The teams' queries and the rules every team verb starts from: who may see a team (its
// members, invited ones included), who may change it (its active owners), and the one way a
// team is written (a transaction holding the team's row lock).

export type Team = { team: TeamRow; members: TeamMemberView[] };
export type Membership = { team: TeamRow; member: TeamMemberRow };

const memberColumns = {
  userId: teamMembers.userId,
  username: users.username,
  fullName: users.fullName,
  role: teamMembers.role,
  status: teamMembers.status,
};

/** A team's members in the order they joined it (the order hosts are listed in). */
export function listMembers(db: Db | Tx, teamIds: string[]): Promise<(TeamMemberView & { teamId: string })[]> {
  if (teamIds.length === 0) return Promise.resolve([]);
  return db
    .select({ teamId: teamMembers.teamId, ...memberColumns })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(inArray(teamMembers.teamId, teamIds), liveMember()))
    .orderBy(asc(teamMembers.createdAt), asc(teamMembers.userId));
}

export async function withMembers(db: Db | Tx, team: TeamRow): Promise<Team> {
  return { team, members: await listMembers(db, [team.id]) };
}

export async function memberView(db: Db | Tx, teamId: string, userId: string): Promise<TeamMemberView> {
  const [row] = await db
    .select(memberColumns)
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
  if (!row) throw notFound("Member");
  return row;
}

/**
 * The team and the caller's place in it, or 404: to anyone outside it, a team is
 * indistinguishable from an id that was never used. Invited members see the team (they need to,
 * to accept) until their invitation expires; what else they may do is for the caller to check
 * (requireActive, requireOwner).
 */
export async function memberOrNotFound(db: Db | Tx, user: UserRow, teamId: string): Promise<Membership> {
  const [row] = await db
    .select({ team: teams, member: teamMembers })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, user.id), liveMember()))
    .limit(1);
  if (!row) throw notFound("Team");
  return row;
}

/** Team event types and hosting are for members who accepted: an invitee is told to accept first. */
export function requireActive(m: Membership): void {
  if (m.member.status !== "active") throw new AppError("forbidden", "Accept the invitation to this team first");
}

/** Changing a team, its members or its event types is for its active owners. */
export function requireOwner(m: Membership): void {
  if (m.member.role !== "owner" || m.member.status !== "active") {
    throw new AppError("forbidden", "Only an owner of this team can do this");
  }
}

/** userIds of the team's active members, in the order they joined. */
export async function activeMemberIds(db: Db | Tx, teamId: string): Promise<string[]> {
  const rows = await db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.status, "active")))
    .orderBy(asc(teamMembers.createdAt), asc(teamMembers.userId));
  return rows.map((r) => r.userId);
}

export async function activeOwnerCount(tx: Tx, teamId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.role, "owner"), eq(teamMembers.status, "active")));
  return row?.n ?? 0;
}

/**
 * The one way a team is written: through the hosts' write door as the team (writeForHosts with
 * its teamId), which first takes the team's row lock, so that membership, ownership and the hosts
 * of its event types change one writer at a time. The caller's membership is read under that
 * lock. Hosts the work touches get their slot caches dropped, as for any write to a host's time.
 */
export function writeTeam<T>(
  db: Db,
  user: UserRow,
  teamId: string,
  work: (tx: Tx, membership: Membership, touch: TouchHosts) => Promise<T>,
): Promise<T> {
  return writeForHosts(db, [], async (tx, touch) => work(tx, await memberOrNotFound(tx, user, teamId), touch), { teamId });
}
