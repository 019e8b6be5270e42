// POST /api/v1/me/teams/{teamId}/members – invite someone to the team
import { toTeamMember } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { InviteMemberBody, TeamMember, TeamParams } from "@/lib/schemas/team";
import { inviteMember, MAX_PENDING_INVITATIONS_RECEIVED, MAX_PENDING_INVITATIONS_SENT } from "@/lib/services/teams";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/teams/{teamId}/members", {
  POST: route(
    {
      auth: "host",
      summary: "Invite a person by username (owners); they are invited until they accept",
      tags: ["Teams"],
      params: TeamParams,
      body: InviteMemberBody,
      responses: { 201: { description: "The new member, status invited", schema: TeamMember } },
      errors: [
        { status: 403, description: "forbidden: only the team's active owners may do this" },
        { status: 404, description: "not_found: no such team (or the caller is not in it), or no one has this username (details.field = username)" },
        {
          status: 409,
          description:
            `conflict: the person is already a member or invited; or the caller has ${MAX_PENDING_INVITATIONS_SENT} invitations waiting for an answer (details.limit = invitations_sent); ` +
            `or the person has ${MAX_PENDING_INVITATIONS_RECEIVED} (details.limit = invitations_received). An accepted, declined or withdrawn invitation frees its place.`,
        },
      ],
    },
    async ({ db, host, params, body }) => json(toTeamMember(await inviteMember(db, host, params.teamId, body)), { status: 201 }),
  ),
});
