// GET /api/v1/me/event-types/{eventTypeId}/explain?startTime=… – why a time is or is not bookable
import { endpoint, json, route } from "@/lib/http/route";
import { holidayLanguageOf } from "@/lib/i18n/locales";
import { EventTypeParams, Explanation, ExplainQuery } from "@/lib/schemas/event-type";
import { explainEventTypeSlot } from "@/lib/services/bookable/explain";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/event-types/{eventTypeId}/explain", {
  GET: route(
    {
      auth: "host",
      summary: "Why a start time is, or is not, offered to guests: every reason, with its data",
      tags: ["Event types"],
      params: EventTypeParams,
      query: ExplainQuery,
      responses: { 200: { description: "bookable is true exactly when the slot list offers the start", schema: Explanation } },
      errors: [404],
    },
    async ({ db, host, params, query, req }) => json(await explainEventTypeSlot(db, host, params.eventTypeId, query.startTime, Date.now(), holidayLanguageOf(req.headers, host))),
  ),
});
