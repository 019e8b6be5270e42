// GET /api/v1/public/{username}/{eventSlug}/series – the dates of a series before a guest books it
import { endpoint, json, PUBLIC_SLOTS_LIMIT, route } from "@/lib/http/route";
import { PublicEventParams, SeriesPreview, SeriesQuery } from "@/lib/schemas/booking";
import { previewSeries } from "@/lib/services/bookable/series";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/public/{username}/{eventSlug}/series", {
  GET: route(
    {
      auth: "none",
      summary: "A recurring event type: every date a series from startTime would take, and whether each is free (decisions §19)",
      tags: ["Public booking"],
      params: PublicEventParams,
      query: SeriesQuery,
      ipLimit: PUBLIC_SLOTS_LIMIT,
      responses: { 200: { description: "The occurrences in order, in the guest's timezone", schema: SeriesPreview } },
      errors: [404],
    },
    async ({ db, params, query }) => json(await previewSeries(db, { username: params.username }, params.eventSlug, query, Date.now())),
  ),
});
