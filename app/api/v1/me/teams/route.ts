// GET, POST /api/v1/me/teams – the caller's teams, and a new team
import { toTeam } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { CreateTeamBody, Team, TeamList } from "@/lib/schemas/team";
import { createTeam, listTeams } from "@/lib/services/teams";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/teams", {
  GET: route(
    {
      auth: "host",
      summary: "List the teams the caller is an active or invited member of",
      tags: ["Teams"],
      responses: { 200: { description: "Teams, oldest first, each with its members", schema: TeamList } },
    },
    async ({ db, host }) => json({ data: (await listTeams(db, host)).map((t) => toTeam(t.team, t.members)) }),
  ),
  POST: route(
    {
      auth: "host",
      summary: "Create a team; the caller is its active owner",
      tags: ["Teams"],
      body: CreateTeamBody,
      responses: { 201: { description: "The new team", schema: Team } },
      errors: [400, { status: 409, description: "conflict: the team slug is taken (details.field = slug)" }],
    },
    async ({ db, host, body }) => {
      const created = await createTeam(db, host, body);
      return json(toTeam(created.team, created.members), { status: 201 });
    },
  ),
});
