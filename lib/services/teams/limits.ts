import "server-only";
import { and, count, eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { teamEmailInvitations, teamMembers, users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { lockName } from "@/lib/store/locks";
import { pendingEmailInvitation, pendingMember } from "./invitation-rules";

// How far one account can reach into other people's team lists (the audit's flood of 300 teams,
// each inviting one person). Each count is taken under a per-person advisory lock, inside the
// transaction that adds the row it counts, so concurrent requests cannot both pass the last place.
// Invitations by username and by email address count alike; expired ones count for nothing.

/** Invitations one person has sent that are still waiting for an answer, across all teams. */
export const MAX_PENDING_INVITATIONS_SENT = 20;
/** Invitations one person (one address) has received that are still waiting for an answer, from all teams. */
export const MAX_PENDING_INVITATIONS_RECEIVED = 10;
/** Teams one person is an active owner of, for creating another one. */
export const MAX_OWNED_TEAMS = 50;

const firstCount = ([row]: { n: number }[]) => row?.n ?? 0;

/**
 * Takes the invitation locks of the inviter and the invitee's address, always in the same order
 * (two people inviting each other at once must not wait on each other), then refuses a new
 * invitation past either cap. The invitee is counted by address (lower-cased, as accounts' are):
 * invitations by username to the account with that address and by email to the address itself.
 * The inviter is told about their own count; past the invitee's, they learn only that this
 * person cannot take more invitations now, never how many or from whom. Accepting, declining,
 * withdrawing or the expiry of an invitation frees its place. `field` names the request's field
 * the refusal is shown at.
 */
export async function assertInvitationRoom(tx: Tx, inviterId: string, inviteeEmail: string, field: "username" | "email", now: number = Date.now()): Promise<void> {
  for (const name of [`team-invitations:${inviterId}`, `team-invitations:email:${inviteeEmail}`].sort()) await lockName(tx, name);
  const sentAsMembers = firstCount(await tx.select({ n: count() }).from(teamMembers).where(and(eq(teamMembers.invitedBy, inviterId), pendingMember(now))));
  const sentByEmail = firstCount(
    await tx.select({ n: count() }).from(teamEmailInvitations).where(and(eq(teamEmailInvitations.invitedBy, inviterId), pendingEmailInvitation(now))),
  );
  if (sentAsMembers + sentByEmail >= MAX_PENDING_INVITATIONS_SENT) {
    throw new AppError(
      "conflict",
      `You have ${MAX_PENDING_INVITATIONS_SENT} invitations waiting for an answer, the most one person can have. Wait until some are accepted or declined, or withdraw some, then invite again.`,
      { field, limit: "invitations_sent" },
    );
  }
  const receivedAsMember = firstCount(
    await tx.select({ n: count() }).from(teamMembers).innerJoin(users, eq(users.id, teamMembers.userId)).where(and(eq(users.email, inviteeEmail), pendingMember(now))),
  );
  const receivedByEmail = firstCount(
    await tx.select({ n: count() }).from(teamEmailInvitations).where(and(eq(teamEmailInvitations.email, inviteeEmail), pendingEmailInvitation(now))),
  );
  if (receivedAsMember + receivedByEmail >= MAX_PENDING_INVITATIONS_RECEIVED) {
    throw new AppError(
      "conflict",
      "This person cannot receive more team invitations right now. Ask them to accept or decline the ones they have, then invite them again.",
      { field, limit: "invitations_received" },
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
