// POST /api/v1/me/teams/{teamId}/members – invite someone to the team, by username or by email address
import { toTeamEmailInvitation, toTeamMember } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { InviteMemberBody, TeamEmailInvitation, TeamMember, TeamParams } from "@/lib/schemas/team";
import { INVITATION_TTL_DAYS, inviteByEmail, inviteMember, MAX_PENDING_INVITATIONS_RECEIVED, MAX_PENDING_INVITATIONS_SENT } from "@/lib/services/teams";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/teams/{teamId}/members", {
  POST: route(
    {
      auth: "host",
      summary:
        `Invite a person (owners) by username, or by email address (an email goes to the address: to its account's invitations, or a sign-up link); ` +
        `they are invited until they accept, for ${INVITATION_TTL_DAYS} days`,
      tags: ["Teams"],
      params: TeamParams,
      body: InviteMemberBody,
      responses: {
        201: {
          description: "By username: the new member, status invited. By email: the invitation, the same answer whether or not an account uses the address",
          schema: TeamMember.or(TeamEmailInvitation),
        },
      },
      errors: [
        400,
        { status: 403, description: "forbidden: only the team's active owners may do this" },
        { status: 404, description: "not_found: no such team (or the caller is not in it), or no one has this username (details.field = username)" },
        {
          status: 409,
          description:
            `conflict: the person is already a member or invited, or the address already has an invitation to the team (details.field = email); or the caller has ${MAX_PENDING_INVITATIONS_SENT} invitations waiting for an answer (details.limit = invitations_sent); ` +
            `or the person (by address) has ${MAX_PENDING_INVITATIONS_RECEIVED} (details.limit = invitations_received). An accepted, declined, withdrawn or expired invitation frees its place.`,
        },
      ],
    },
    async ({ db, host, params, body }) => {
      if (body.email !== undefined) {
        return json(toTeamEmailInvitation(await inviteByEmail(db, host, params.teamId, { email: body.email, role: body.role, language: body.language })), { status: 201 });
      }
      return json(toTeamMember(await inviteMember(db, host, params.teamId, { username: body.username!, role: body.role })), { status: 201 });
    },
  ),
});
