// GET /api/v1/me/event-types/{eventTypeId}/social-post – a social page post announcing the event type
import { ContentRecord } from "@/lib/schemas/social-page";
import { endpoint, json, route } from "@/lib/http/route";
import { EventTypeParams } from "@/lib/schemas/event-type";
import { socialPostForEventType } from "@/lib/services/event-types/social-post";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/event-types/{eventTypeId}/social-post", {
  GET: route(
    {
      auth: "host",
      summary: "A content record of the social page contract announcing the event type's booking page",
      tags: ["Event types", "Contracts"],
      params: EventTypeParams,
      responses: { 200: { description: "A valid content record (status draft) with the booking link and a BOOK_NOW call to action", schema: ContentRecord } },
      errors: [404, { status: 409, description: "The event type is inactive: its page is not public (conflict)" }],
    },
    async ({ db, host, params }) => json(await socialPostForEventType(db, host, params.eventTypeId)),
  ),
});
