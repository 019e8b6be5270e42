import "server-only";
import { and, asc, count, eq, type SQL } from "drizzle-orm";
import type { Db } from "@/db";
import { teamMembers, teams, users, type TeamRow, type UserRow } from "@/db/schema";
import { emailInvitationsTo } from "./email-invitations";
import { liveMember, pendingMember } from "./invitation-rules";
import { listMembers, type Team } from "./store";

export type Page = { page: number; limit: number };
export type TeamListQuery = Page & { status?: "active" | "invited" };

/**
 * A page of the teams the caller is an active or invited member of (one of the two with
 * `status`), oldest first, with their members, and how many there are in all.
 */
export async function listTeams(db: Db, user: UserRow, query: TeamListQuery): Promise<{ teams: Team[]; total: number }> {
  const where: SQL | undefined = and(eq(teamMembers.userId, user.id), liveMember(), query.status ? eq(teamMembers.status, query.status) : undefined);
  const [rows, [counted]] = await Promise.all([
    db
      .select({ team: teams })
      .from(teamMembers)
      .innerJoin(teams, eq(teams.id, teamMembers.teamId))
      .where(where)
      .orderBy(asc(teams.createdAt), asc(teams.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ total: count() }).from(teamMembers).where(where),
  ]);
  const members = await listMembers(db, rows.map((r) => r.team.id));
  return { teams: rows.map(({ team }) => ({ team, members: members.filter((m) => m.teamId === team.id) })), total: counted?.total ?? 0 };
}

export type Invitation = {
  team: Pick<TeamRow, "id" | "slug" | "name">;
  role: "owner" | "member";
  invitedAt: Date;
  /** Who sent it; null when their account has since been deleted. */
  invitedBy: { userId: string; username: string; fullName: string } | null;
};

/**
 * A page of the invitations waiting for the caller's answer, oldest first: the team (its id,
 * slug and name, and nothing of its members), the role offered, and who sent it. Invitations by
 * username and by email to the caller's address alike; expired ones are gone.
 */
export async function listInvitations(db: Db, user: UserRow, query: Page): Promise<{ invitations: Invitation[]; total: number }> {
  const where = and(eq(teamMembers.userId, user.id), pendingMember());
  const [rows, byEmail] = await Promise.all([
    db
      .select({
        team: { id: teams.id, slug: teams.slug, name: teams.name },
        role: teamMembers.role,
        invitedAt: teamMembers.createdAt,
        inviterId: users.id,
        inviterUsername: users.username,
        inviterName: users.fullName,
      })
      .from(teamMembers)
      .innerJoin(teams, eq(teams.id, teamMembers.teamId))
      .leftJoin(users, eq(users.id, teamMembers.invitedBy))
      .where(where)
      .orderBy(asc(teamMembers.createdAt), asc(teamMembers.teamId)),
    // Each address holds at most MAX_PENDING_INVITATIONS_RECEIVED waiting ones: both lists are short.
    emailInvitationsTo(db, user),
  ]);
  const all = [...rows, ...byEmail].sort((a, b) => a.invitedAt.getTime() - b.invitedAt.getTime() || a.team.id.localeCompare(b.team.id));
  const start = (query.page - 1) * query.limit;
  return {
    invitations: all.slice(start, start + query.limit).map((r) => ({
      team: r.team,
      role: r.role,
      invitedAt: r.invitedAt,
      invitedBy: r.inviterId ? { userId: r.inviterId, username: r.inviterUsername!, fullName: r.inviterName! } : null,
    })),
    total: all.length,
  };
}
