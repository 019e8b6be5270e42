import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { teamMembers, teams, type UserRow } from "@/db/schema";
import { claimEmailInvitation } from "./email-invitations";
import { withMembers, writeTeam, type Team } from "./store";

/**
 * The invitee joins: `invited` becomes `active`, and from then on they can host the team's event
 * types. An invitation by email to the caller's address is accepted the same way. Accepting
 * again is harmless (the same answer); anyone not in the team, or whose invitation expired, gets
 * 404.
 */
export async function acceptInvitation(db: Db, user: UserRow, teamId: string): Promise<Team> {
  await db.transaction(async (tx) => {
    await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, teamId)).for("update");
    await claimEmailInvitation(tx, user, teamId);
  });
  return writeTeam(db, user, teamId, async (tx, membership) => {
    if (membership.member.status === "invited") {
      await tx
        .update(teamMembers)
        .set({ status: "active", acceptedAt: new Date(), expiresAt: null })
        .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, user.id)));
    }
    return withMembers(tx, membership.team);
  });
}
