// GET, PATCH, DELETE /api/v1/me/teams/{teamId} – read (members), change or remove (owners) one team
import { toTeam } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { Team, TeamParams, UpdateTeamBody } from "@/lib/schemas/team";
import { deleteTeam, getTeam, updateTeam } from "@/lib/services/teams";

const OWNERS_ONLY = { status: 403, description: "forbidden: only the team's active owners may do this" };

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/teams/{teamId}", {
  GET: route(
    {
      auth: "host",
      summary: "Read a team and its members (any member, invited ones too); its owners also get its invitations by email waiting for an answer",
      tags: ["Teams"],
      params: TeamParams,
      responses: { 200: { description: "The team", schema: Team } },
      errors: [{ status: 404, description: "not_found: no such team, or the caller is not in it" }],
    },
    async ({ db, host, params }) => {
      const { team, members, emailInvitations } = await getTeam(db, host, params.teamId);
      return json(toTeam(team, members, emailInvitations));
    },
  ),
  PATCH: route(
    {
      auth: "host",
      summary: "Rename a team or change its slug (owners)",
      tags: ["Teams"],
      params: TeamParams,
      body: UpdateTeamBody,
      responses: { 200: { description: "The updated team", schema: Team } },
      errors: [400, OWNERS_ONLY, 404, { status: 409, description: "conflict: the team slug is taken (details.field = slug)" }],
    },
    async ({ db, host, params, body }) => {
      const { team, members } = await updateTeam(db, host, params.teamId, body);
      return json(toTeam(team, members));
    },
  ),
  DELETE: route(
    {
      auth: "host",
      summary: "Delete a team with its members and event types (owners); refused while its event types have bookings",
      tags: ["Teams"],
      params: TeamParams,
      responses: { 204: { description: "Removed" } },
      errors: [OWNERS_ONLY, 404, { status: 409, description: "conflict: bookings refer to the team's event types" }],
    },
    async ({ db, host, params }) => {
      await deleteTeam(db, host, params.teamId);
      return json(undefined, { status: 204 });
    },
  ),
});
