// GET /api/v1/public/{username}/{eventSlug} – what a guest's booking page shows
import { endpoint, json, route } from "@/lib/http/route";
import { PublicEventPage, PublicEventParams } from "@/lib/schemas/booking";
import { personalHost } from "@/lib/services/bookable/bookable";
import { getPublicBookableCached } from "@/lib/services/bookable/bookable";

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
        host: { fullName: host.fullName, username: host.username, avatarUrl: host.avatarUrl, timezone: host.timezone },
        eventType: {
          slug: eventType.slug,
          title: eventType.title,
          durationMinutes: eventType.durationMinutes,
          location: eventType.location,
          description: eventType.description,
          customQuestions: eventType.customQuestions,
        },
      });
    },
  ),
});
