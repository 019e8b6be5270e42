// GET, POST /api/v1/me/event-types – list and create the host's event types
import { toEventType } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { CreateEventTypeBody, EventType, EventTypeList } from "@/lib/schemas/event-type";
import { createEventType, listEventTypes } from "@/lib/services/event-types/manage";
import { hostOwner } from "@/lib/services/event-types/owner";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/event-types", {
  GET: route(
    {
      auth: "host",
      summary: "List the host's event types, inactive ones included",
      tags: ["Event types"],
      responses: { 200: { description: "Event types, oldest first", schema: EventTypeList } },
    },
    async ({ db, host }) => json({ data: (await listEventTypes(db, hostOwner(host))).eventTypes.map((e) => toEventType(e, host.username)) }),
  ),
  POST: route(
    {
      auth: "host",
      summary: "Create an event type",
      tags: ["Event types"],
      body: CreateEventTypeBody,
      responses: { 201: { description: "The new event type", schema: EventType } },
      errors: [400, 409],
    },
    async ({ db, host, body }) => json(toEventType((await createEventType(db, hostOwner(host), body)).eventType, host.username), { status: 201 }),
  ),
});
