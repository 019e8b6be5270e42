// GET, POST /api/v1/me/teams/{teamId}/event-types – the team's event types (members), and a new one (owners)
import { toTeamEventType } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { CreateTeamEventTypeBody, TeamEventType, TeamEventTypeList, TeamParams } from "@/lib/schemas/team";
import { createEventType, listEventTypes } from "@/lib/services/event-types/manage";
import { teamOwner } from "@/lib/services/event-types/owner";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/teams/{teamId}/event-types", {
  GET: route(
    {
      auth: "host",
      summary: "List the team's event types, inactive ones included (active members)",
      tags: ["Teams"],
      params: TeamParams,
      responses: { 200: { description: "Team event types, oldest first", schema: TeamEventTypeList } },
      errors: [{ status: 403, description: "forbidden: the caller has not accepted the invitation yet" }, 404],
    },
    async ({ db, host, params }) => {
      const { team, eventTypes } = await listEventTypes(db, teamOwner(host, params.teamId));
      return json({ data: eventTypes.map((e) => toTeamEventType(e, team!.slug)) });
    },
  ),
  POST: route(
    {
      auth: "host",
      summary: "Create a team event type (owners): the event-type fields, schedulingType, and hostIds (every active member when left out)",
      tags: ["Teams"],
      params: TeamParams,
      body: CreateTeamEventTypeBody,
      responses: { 201: { description: "The new team event type", schema: TeamEventType } },
      errors: [
        { status: 400, description: "validation_error; a host who is not an active member is refused at hostIds" },
        { status: 403, description: "forbidden: only the team's active owners may do this" },
        404,
        { status: 409, description: "conflict: the team has an event type with this slug (details.field = slug)" },
      ],
    },
    async ({ db, host, params, body }) => {
      const { eventType, team } = await createEventType(db, teamOwner(host, params.teamId), body);
      return json(toTeamEventType(eventType, team!.slug), { status: 201 });
    },
  ),
});
