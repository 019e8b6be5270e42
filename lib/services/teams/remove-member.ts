import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { eventTypes, teamEmailInvitations, teamMembers, type UserRow } from "@/db/schema";
import { AppError, notFound } from "@/lib/errors";
import { activeOwnerCount, memberOrNotFound, requireOwner, writeTeam } from "./store";

/**
 * Removes a member (an owner's action), or the caller leaves (or declines an invitation, by
 * username or to their address). The
 * team's last active owner can do neither: 409. The person stops hosting every event type of the
 * team; the bookings they already have stay theirs.
 */
export async function removeMember(db: Db, user: UserRow, teamId: string, userId: string): Promise<void> {
  if (userId === user.id) {
    // Declining an invitation by email to one's own address (not yet a place in the team).
    const declined = await db
      .delete(teamEmailInvitations)
      .where(and(eq(teamEmailInvitations.teamId, teamId), eq(teamEmailInvitations.email, user.email)))
      .returning({ id: teamEmailInvitations.id });
    if (declined.length > 0 && !(await memberOrNotFound(db, user, teamId).catch(() => undefined))) return;
  }
  await writeTeam(db, user, teamId, async (tx, membership, touch) => {
    if (userId !== user.id) requireOwner(membership);
    const mine = and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId));
    const [target] = await tx.select().from(teamMembers).where(mine).limit(1);
    if (!target) throw notFound("Member");
    if (target.role === "owner" && target.status === "active" && (await activeOwnerCount(tx, teamId)) <= 1) {
      throw new AppError(
        "conflict",
        userId === user.id
          ? "You are the team's only owner: make another member an owner before you leave"
          : "This is the team's only owner: make another member an owner first",
      );
    }
    await tx.delete(teamMembers).where(mine);
    // jsonb `-` removes the id from each array that holds it.
    await tx
      .update(eventTypes)
      .set({ hostIds: sql`${eventTypes.hostIds} - ${userId}::text`, updatedAt: sql`now()` })
      .where(and(eq(eventTypes.teamId, teamId), sql`${eventTypes.hostIds} @> jsonb_build_array(${userId}::text)`));
    touch([userId]);
  });
}
