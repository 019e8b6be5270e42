import "server-only";
// Teams (decisions §15): teams, membership and who may host (their event types are
// lib/services/event-types', as a host's own are). One verb per file; queries and the
// membership rules in store.ts.
export { createTeam } from "./create";
export { listInvitations, listTeams } from "./list";
export { getTeam } from "./get";
export { updateTeam } from "./update";
export { deleteTeam } from "./delete";
export { inviteMember } from "./invite";
export { inviteByEmail, teamInvitationMailOf } from "./invite-by-email";
export { invitationOfSignUpToken, joinBySignUpToken, withdrawEmailInvitation } from "./email-invitations";
export { INVITATION_TTL_DAYS } from "./invitation-rules";
export { acceptInvitation } from "./accept";
export { changeMemberRole } from "./change-role";
export { removeMember } from "./remove-member";
export { MAX_OWNED_TEAMS, MAX_PENDING_INVITATIONS_RECEIVED, MAX_PENDING_INVITATIONS_SENT } from "./limits";
export type { Team } from "./store";
export type { Invitation } from "./list";
