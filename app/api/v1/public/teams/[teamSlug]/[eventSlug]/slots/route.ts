// GET /api/v1/public/teams/{teamSlug}/{eventSlug}/slots – a team event type's open slots for the guest's dates and zone
import { jsonText } from "@/lib/http/respond";
import { endpoint, PUBLIC_SLOTS_LIMIT, route } from "@/lib/http/route";
import { PublicTeamEventParams, SlotList, SlotsQuery } from "@/lib/schemas/booking";
import { listPublicSlotsJson } from "@/lib/services/bookable/slots";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/public/teams/{teamSlug}/{eventSlug}/slots", {
  GET: route(
    {
      auth: "none",
      summary: "A team event type's open slots between two dates (inclusive, at most 31 days apart) in the guest's timezone: round robin when any host is free, collective when every host is",
      tags: ["Public booking"],
      params: PublicTeamEventParams,
      query: SlotsQuery,
      ipLimit: PUBLIC_SLOTS_LIMIT,
      responses: { 200: { description: "Slots sorted by start", schema: SlotList } },
      errors: [404],
    },
    async ({ db, params, query }) => jsonText(await listPublicSlotsJson(db, { teamSlug: params.teamSlug }, params.eventSlug, query, Date.now())),
  ),
});
