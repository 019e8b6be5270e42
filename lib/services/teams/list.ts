import "server-only";
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { teamMembers, teams, type UserRow } from "@/db/schema";
import { listMembers, type Team } from "./store";

/** The teams the caller is an active or invited member of, oldest first, with their members. */
export async function listTeams(db: Db, user: UserRow): Promise<Team[]> {
  const rows = await db
    .select({ team: teams })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, user.id))
    .orderBy(asc(teams.createdAt), asc(teams.id));
  const members = await listMembers(db, rows.map((r) => r.team.id));
  return rows.map(({ team }) => ({ team, members: members.filter((m) => m.teamId === team.id) }));
}
