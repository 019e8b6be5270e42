// PATCH, DELETE /api/v1/me/event-types/{eventTypeId} – change or remove one event type
import { toEventType } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { EventType, EventTypeParams, UpdateEventTypeBody } from "@/lib/schemas/event-type";
import { deleteEventType, updateEventType } from "@/lib/services/event-types/manage";
import { hostOwner } from "@/lib/services/event-types/owner";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/event-types/{eventTypeId}", {
  PATCH: route(
    {
      auth: "host",
      summary: "Change an event type (any create field, and isActive)",
      tags: ["Event types"],
      params: EventTypeParams,
      body: UpdateEventTypeBody,
      responses: { 200: { description: "The updated event type", schema: EventType } },
      errors: [400, 404, 409],
    },
    async ({ db, host, params, body }) =>
      json(toEventType((await updateEventType(db, hostOwner(host), params.eventTypeId, body)).eventType, host.username)),
  ),
  DELETE: route(
    {
      auth: "host",
      summary: "Delete an event type: soft (isActive false) when it has bookings, hard otherwise",
      tags: ["Event types"],
      params: EventTypeParams,
      responses: {
        200: { description: "Soft-deleted: bookings refer to it", schema: EventType },
        204: { description: "Removed" },
      },
      errors: [404],
    },
    async ({ db, host, params }) => {
      const soft = await deleteEventType(db, hostOwner(host), params.eventTypeId);
      return soft ? json(toEventType(soft.eventType, host.username)) : json(undefined, { status: 204 });
    },
  ),
});
