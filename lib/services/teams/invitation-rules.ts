import "server-only";
import { and, eq, gt, or, type SQL } from "drizzle-orm";
import { teamEmailInvitations, teamMembers } from "@/db/schema";

// How long an invitation waits for its answer, and what "still waiting" means in SQL. Past its
// time an invitation is as if it had never been sent: not listed, not acceptable, and no longer
// counted against anyone's caps (limits.ts). The rows stay until re-invited or the team goes.

export const INVITATION_TTL_DAYS = 7;
export const INVITATION_TTL_MS = INVITATION_TTL_DAYS * 24 * 60 * 60 * 1000;

export const invitationExpiry = (now: number) => new Date(now + INVITATION_TTL_MS);

/** A team_members row that counts: an active member, or an invitation still waiting. */
export function liveMember(now: number = Date.now()): SQL {
  return or(eq(teamMembers.status, "active"), gt(teamMembers.expiresAt, new Date(now)))!;
}

/** A team_members invitation still waiting for its answer. */
export function pendingMember(now: number = Date.now()): SQL {
  return and(eq(teamMembers.status, "invited"), gt(teamMembers.expiresAt, new Date(now)))!;
}

/** An invitation by email still waiting for its answer. */
export function pendingEmailInvitation(now: number = Date.now()): SQL {
  return gt(teamEmailInvitations.expiresAt, new Date(now));
}
