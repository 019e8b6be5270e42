// GET /api/v1/public/{username}/{eventSlug} – what a guest's booking page shows
import { toPublicEventType, toPublicHost } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { PublicEventPage, PublicEventParams } from "@/lib/schemas/booking";
import { getPublicBookableCached, personalHost } from "@/lib/services/bookable/bookable";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/public/{username}/{eventSlug}", {
  GET: route(
    {
      auth: "none",
      summary: "The host and event type behind a public booking page",
      tags: ["Public booking"],
      params: PublicEventParams,
      responses: { 200: { description: "Host and event type", schema: PublicEventPage } },
      errors: [404],
    },
    async ({ db, params }) => {
      const bookable = await getPublicBookableCached(db, { username: params.username }, params.eventSlug);
      const { eventType } = bookable;
      const host = personalHost(bookable);
      return json({
        host: toPublicHost(host),
        eventType: toPublicEventType(eventType),
      });
    },
  ),
});
