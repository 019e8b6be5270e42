// GET, PATCH, DELETE /api/v1/me/teams/{teamId}/event-types/{eventTypeId} – read (members), change or remove (owners) a team event type
import { toTeamEventType } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { TeamEventType, TeamEventTypeParams, UpdateTeamEventTypeBody } from "@/lib/schemas/team";
import { deleteEventType, getEventType, updateEventType } from "@/lib/services/event-types/manage";
import { teamOwner } from "@/lib/services/event-types/owner";

const OWNERS_ONLY = { status: 403, description: "forbidden: only the team's active owners may do this" };

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/teams/{teamId}/event-types/{eventTypeId}", {
  GET: route(
    {
      auth: "host",
      summary: "Read one team event type (active members)",
      tags: ["Teams"],
      params: TeamEventTypeParams,
      responses: { 200: { description: "The team event type", schema: TeamEventType } },
      errors: [{ status: 403, description: "forbidden: the caller has not accepted the invitation yet" }, 404],
    },
    async ({ db, host, params }) => {
      const { eventType, team } = await getEventType(db, teamOwner(host, params.teamId), params.eventTypeId);
      return json(toTeamEventType(eventType, team!.slug));
    },
  ),
  PATCH: route(
    {
      auth: "host",
      summary: "Change a team event type (owners): any create field, isActive, schedulingType, hostIds",
      tags: ["Teams"],
      params: TeamEventTypeParams,
      body: UpdateTeamEventTypeBody,
      responses: { 200: { description: "The updated team event type", schema: TeamEventType } },
      errors: [
        { status: 400, description: "validation_error; a host who is not an active member is refused at hostIds" },
        OWNERS_ONLY,
        404,
        { status: 409, description: "conflict: the team has an event type with this slug (details.field = slug)" },
      ],
    },
    async ({ db, host, params, body }) => {
      const { eventType, team } = await updateEventType(db, teamOwner(host, params.teamId), params.eventTypeId, body);
      return json(toTeamEventType(eventType, team!.slug));
    },
  ),
  DELETE: route(
    {
      auth: "host",
      summary: "Delete a team event type (owners): soft (isActive false) when it has bookings, hard otherwise",
      tags: ["Teams"],
      params: TeamEventTypeParams,
      responses: {
        200: { description: "Soft-deleted: bookings refer to it", schema: TeamEventType },
        204: { description: "Removed" },
      },
      errors: [OWNERS_ONLY, 404],
    },
    async ({ db, host, params }) => {
      const soft = await deleteEventType(db, teamOwner(host, params.teamId), params.eventTypeId);
      return soft ? json(toTeamEventType(soft.eventType, soft.team!.slug)) : json(undefined, { status: 204 });
    },
  ),
});
