// GET /api/v1/public/{username}/{eventSlug}/slots – open slots for the guest's dates and zone
import { jsonText } from "@/lib/http/respond";
import { endpoint, PUBLIC_SLOTS_LIMIT, route } from "@/lib/http/route";
import { PublicEventParams, SlotList, SlotsQuery } from "@/lib/schemas/booking";
import { listPublicSlotsJson } from "@/lib/services/bookable/slots";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/public/{username}/{eventSlug}/slots", {
  GET: route(
    {
      auth: "none",
      summary: "Open slots between two dates (inclusive, at most 31 days apart) in the guest's timezone",
      tags: ["Public booking"],
      params: PublicEventParams,
      query: SlotsQuery,
      ipLimit: PUBLIC_SLOTS_LIMIT,
      responses: { 200: { description: "Slots sorted by start", schema: SlotList } },
      errors: [404],
    },
    async ({ db, params, query }) => jsonText(await listPublicSlotsJson(db, { username: params.username }, params.eventSlug, query, Date.now())),
  ),
});
