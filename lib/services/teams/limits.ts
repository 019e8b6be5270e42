import "server-only";
import { and, count, eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { teamMembers } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { lockName } from "@/lib/store/locks";

// How far one account can reach into other people's team lists (the audit's flood of 300 teams,
// each inviting one person). Each count is taken under a per-person advisory lock, inside the
// transaction that adds the row it counts, so concurrent requests cannot both pass the last place.

/** Invitations one person has sent that are still waiting for an answer, across all teams. */
export const MAX_PENDING_INVITATIONS_SENT = 20;
/** Invitations one person has received that are still waiting for an answer, from all teams. */
export const MAX_PENDING_INVITATIONS_RECEIVED = 10;
/** Teams one person is an active owner of, for creating another one. */
export const MAX_OWNED_TEAMS = 50;

/**
 * Takes the invitation locks of the inviter and the invitee, always in the same order (two
 * people inviting each other at once must not wait on each other), then refuses a new
 * invitation past either cap. The inviter is told about their own count; past the invitee's, they
 * learn only that this person cannot take more invitations now, never how many or from whom.
 * Accepting, declining or withdrawing an invitation frees its place.
 */
export async function assertInvitationRoom(tx: Tx, inviterId: string, inviteeId: string): Promise<void> {
  for (const id of [inviterId, inviteeId].sort()) await lockName(tx, `team-invitations:${id}`);
  const pending = (column: typeof teamMembers.userId | typeof teamMembers.invitedBy, userId: string) =>
    tx
      .select({ n: count() })
      .from(teamMembers)
      .where(and(eq(column, userId), eq(teamMembers.status, "invited")))
      .then(([row]) => row?.n ?? 0);
  if ((await pending(teamMembers.invitedBy, inviterId)) >= MAX_PENDING_INVITATIONS_SENT) {
    throw new AppError(
      "conflict",
      `You have ${MAX_PENDING_INVITATIONS_SENT} invitations waiting for an answer, the most one person can have. Wait until some are accepted or declined, or withdraw some, then invite again.`,
      { field: "username", limit: "invitations_sent" },
    );
  }
  if ((await pending(teamMembers.userId, inviteeId)) >= MAX_PENDING_INVITATIONS_RECEIVED) {
    throw new AppError(
      "conflict",
      "This person cannot receive more team invitations right now. Ask them to accept or decline the ones they have, then invite them again.",
      { field: "username", limit: "invitations_received" },
    );
  }
}

/** Takes the caller's team-creation lock and refuses a new team past MAX_OWNED_TEAMS. */
export async function assertTeamRoom(tx: Tx, userId: string): Promise<void> {
  await lockName(tx, `teams-owned:${userId}`);
  const [row] = await tx
    .select({ n: count() })
    .from(teamMembers)
    .where(and(eq(teamMembers.userId, userId), eq(teamMembers.role, "owner"), eq(teamMembers.status, "active")));
  if ((row?.n ?? 0) >= MAX_OWNED_TEAMS) {
    throw new AppError("conflict", `You own ${MAX_OWNED_TEAMS} teams, the most one person can. Delete one you no longer use, then create another.`, { limit: "teams_owned" });
  }
}
