// POST /api/v1/me/teams/{teamId}/accept – the invitee joins the team
import { toTeam } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { Team, TeamParams } from "@/lib/schemas/team";
import { acceptInvitation } from "@/lib/services/teams";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/teams/{teamId}/accept", {
  POST: route(
    {
      auth: "host",
      summary: "Accept an invitation: the caller becomes an active member (again: the same answer)",
      tags: ["Teams"],
      params: TeamParams,
      responses: { 200: { description: "The team", schema: Team } },
      errors: [{ status: 404, description: "not_found: no such team, or the caller is not invited to it" }],
    },
    async ({ db, host, params }) => {
      const { team, members } = await acceptInvitation(db, host, params.teamId);
      return json(toTeam(team, members));
    },
  ),
});
