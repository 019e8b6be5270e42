// GET, POST /api/v1/me/teams – the caller's teams (a page), and a new team
import { toTeam } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { CreateTeamBody, Team, TeamList, TeamListQuery } from "@/lib/schemas/team";
import { createTeam, listTeams, MAX_OWNED_TEAMS } from "@/lib/services/teams";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/teams", {
  GET: route(
    {
      auth: "host",
      summary: "List the teams the caller is an active or invited member of (status: one of the two), a page at a time",
      tags: ["Teams"],
      query: TeamListQuery,
      responses: { 200: { description: "A page of teams, oldest first, each with its members", schema: TeamList } },
      errors: [400],
    },
    async ({ db, host, query }) => {
      const { teams, total } = await listTeams(db, host, query);
      return json({ data: teams.map((t) => toTeam(t.team, t.members)), pagination: { page: query.page, limit: query.limit, total } });
    },
  ),
  POST: route(
    {
      auth: "host",
      summary: `Create a team; the caller is its active owner (an owner of at most ${MAX_OWNED_TEAMS} teams)`,
      tags: ["Teams"],
      body: CreateTeamBody,
      responses: { 201: { description: "The new team", schema: Team } },
      errors: [
        400,
        {
          status: 409,
          description: `conflict: the team slug is taken (details.field = slug), or the caller already owns ${MAX_OWNED_TEAMS} teams (details.limit = teams_owned)`,
        },
      ],
    },
    async ({ db, host, body }) => {
      const created = await createTeam(db, host, body);
      return json(toTeam(created.team, created.members), { status: 201 });
    },
  ),
});
