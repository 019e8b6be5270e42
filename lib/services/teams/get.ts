import "server-only";
import type { Db } from "@/db";
import type { UserRow } from "@/db/schema";
import { listTeamEmailInvitations } from "./email-invitations";
import type { EmailInvitationView } from "./invite-by-email";
import { memberOrNotFound, withMembers, type Team } from "./store";

/**
 * The team, for any of its members (an invitee too: they see what they are asked to join); its
 * active owners also get its invitations by email still waiting for an answer.
 */
export async function getTeam(db: Db, user: UserRow, teamId: string): Promise<Team & { emailInvitations?: EmailInvitationView[] }> {
  const { team, member } = await memberOrNotFound(db, user, teamId);
  const owner = member.role === "owner" && member.status === "active";
  const [withPeople, emailInvitations] = await Promise.all([withMembers(db, team), owner ? listTeamEmailInvitations(db, teamId) : undefined]);
  return { ...withPeople, ...(emailInvitations ? { emailInvitations } : {}) };
}
