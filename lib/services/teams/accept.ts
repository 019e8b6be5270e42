import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { teamMembers, type UserRow } from "@/db/schema";
import { withMembers, writeTeam, type Team } from "./store";

/**
 * The invitee joins: `invited` becomes `active`, and from then on they can host the team's event
 * types. Accepting again is harmless (the same answer); anyone not in the team gets 404.
 */
export async function acceptInvitation(db: Db, user: UserRow, teamId: string): Promise<Team> {
  return writeTeam(db, user, teamId, async (tx, membership) => {
    if (membership.member.status === "invited") {
      await tx
        .update(teamMembers)
        .set({ status: "active", acceptedAt: new Date() })
        .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, user.id)));
    }
    return withMembers(tx, membership.team);
  });
}
