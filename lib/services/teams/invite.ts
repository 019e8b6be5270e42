import "server-only";
import { and, eq, lte } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { teamMembers, users, type UserRow } from "@/db/schema";
import type { TeamMemberView } from "@/lib/dto";
import { AppError } from "@/lib/errors";
import type { InviteMemberBody } from "@/lib/schemas/team";
import { invitationExpiry } from "./invitation-rules";
import { assertInvitationRoom } from "./limits";
import { memberView, requireOwner, writeTeam } from "./store";

/**
 * Invites a person by username (owners only): they are `invited` until they accept (for seven
 * days), and host nothing until then. An unknown username is 404 at `username`; someone already
 * in the team, invited or active, is 409, and so is an invitation past the caps of limits.ts
 * (pending invitations sent by the caller, or received by the invitee). An expired invitation
 * is no obstacle: it is replaced.
 */
export async function inviteMember(db: Db, user: UserRow, teamId: string, input: { username: string; role: z.output<typeof InviteMemberBody>["role"] }, now = Date.now()): Promise<TeamMemberView> {
  return writeTeam(db, user, teamId, async (tx, membership) => {
    requireOwner(membership);
    const [invitee] = await tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.username, input.username)).limit(1);
    if (!invitee) throw new AppError("not_found", `No one has the username "${input.username}"`, { field: "username" });
    const inTeam = and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, invitee.id));
    await tx.delete(teamMembers).where(and(inTeam, eq(teamMembers.status, "invited"), lte(teamMembers.expiresAt, new Date(now))));
    // Already in the team says so, whatever the caps (it adds no invitation).
    const [present] = await tx.select({ userId: teamMembers.userId }).from(teamMembers).where(inTeam).limit(1);
    if (present) throw alreadyInTeam();
    await assertInvitationRoom(tx, user.id, invitee.email, "username", now);
    // The team's row lock is held: nobody else adds this person between the insert and its answer.
    const added = await tx
      .insert(teamMembers)
      .values({ teamId, userId: invitee.id, role: input.role, status: "invited", invitedBy: user.id, expiresAt: invitationExpiry(now) })
      .onConflictDoNothing()
      .returning({ userId: teamMembers.userId });
    if (added.length === 0) throw alreadyInTeam();
    return memberView(tx, teamId, invitee.id);
  });
}

const alreadyInTeam = () => new AppError("conflict", "This person is already a member of the team, or invited", { field: "username" });
