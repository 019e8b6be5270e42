// GET /api/v1/me/team-invitations – the invitations waiting for the caller's answer, apart from their teams
import { toTeamInvitation } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { TeamInvitationList, TeamInvitationsQuery } from "@/lib/schemas/team";
import { listInvitations } from "@/lib/services/teams";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/team-invitations", {
  GET: route(
    {
      auth: "host",
      summary:
        "List the team invitations waiting for the caller's answer, oldest first, with who sent each; accept with POST /me/teams/{teamId}/accept, decline with DELETE /me/teams/{teamId}/members/{the caller's userId}",
      tags: ["Teams"],
      query: TeamInvitationsQuery,
      responses: { 200: { description: "A page of invitations", schema: TeamInvitationList } },
      errors: [400],
    },
    async ({ db, host, query }) => {
      const { invitations, total } = await listInvitations(db, host, query);
      return json({ data: invitations.map(toTeamInvitation), pagination: { page: query.page, limit: query.limit, total } });
    },
  ),
});
