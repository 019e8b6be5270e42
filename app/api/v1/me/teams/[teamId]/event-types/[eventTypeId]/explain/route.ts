// GET /api/v1/me/teams/{teamId}/event-types/{eventTypeId}/explain?startTime=… – why a time is or is not bookable with the team
import { endpoint, json, route } from "@/lib/http/route";
import { holidayLanguageOf } from "@/lib/i18n/locales";
import { ExplainQuery, TeamExplanation } from "@/lib/schemas/event-type";
import { TeamEventTypeParams } from "@/lib/schemas/team";
import { explainTeamEventTypeSlot } from "@/lib/services/bookable/explain";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/teams/{teamId}/event-types/{eventTypeId}/explain", {
  GET: route(
    {
      auth: "host",
      summary: "Why a start time is, or is not, offered for a team event type: for each host, whether they could take it and every reason why not",
      tags: ["Teams"],
      params: TeamEventTypeParams,
      query: ExplainQuery,
      responses: { 200: { description: "bookable is true exactly when the team's slot list offers the start", schema: TeamExplanation } },
      errors: [403, 404],
    },
    async ({ db, host, params, query, req }) => json(await explainTeamEventTypeSlot(db, host, params.teamId, params.eventTypeId, query.startTime, Date.now(), holidayLanguageOf(req.headers, host))),
  ),
});
