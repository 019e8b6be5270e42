// GET /api/v1/public/teams/{teamSlug}/{eventSlug}/series – the dates of a team series before a guest books it
import { endpoint, json, PUBLIC_SLOTS_LIMIT, route } from "@/lib/http/route";
import { PublicTeamEventParams, SeriesPreview, SeriesQuery } from "@/lib/schemas/booking";
import { previewSeries } from "@/lib/services/bookable/series";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/public/teams/{teamSlug}/{eventSlug}/series", {
  GET: route(
    {
      auth: "none",
      summary: "A recurring team event type: every date a series from startTime would take with one host, and whether each is free (decisions §19)",
      tags: ["Public booking"],
      params: PublicTeamEventParams,
      query: SeriesQuery,
      ipLimit: PUBLIC_SLOTS_LIMIT,
      responses: { 200: { description: "The occurrences in order, in the guest's timezone", schema: SeriesPreview } },
      errors: [404],
    },
    async ({ db, params, query }) => json(await previewSeries(db, { teamSlug: params.teamSlug }, params.eventSlug, query, Date.now())),
  ),
});
