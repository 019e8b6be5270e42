// GET /api/v1/me/insights – how the host's bookings are doing over a range of days (decisions §22)
import { endpoint, json, route } from "@/lib/http/route";
import { Insights, InsightsQuery } from "@/lib/schemas/insights";
import { insightsFor } from "@/lib/services/insights/insights";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/insights", {
  GET: route(
    {
      auth: "host",
      summary:
        "The host's insights: the bookings they host whose start falls between from and to (dates in the host's timezone, at most 366 days), " +
        "optionally of one event type or one team; payment holds not counted (docs/insights.md)",
      tags: ["Insights"],
      query: InsightsQuery,
      responses: {
        200: {
          description: "Totals, bookings per day (every date of the range), per event type, per weekday and hour, lead time, and per host for team event types",
          schema: Insights,
        },
      },
      errors: [{ status: 404, description: "The event type or team is not one the host can see" }],
    },
    async ({ db, host, query }) => json(await insightsFor(db, host, query)),
  ),
});
