// GET /api/v1/public/links/{token}/slots – a one-time link's open slots, as the event type's own slots route
import { jsonText } from "@/lib/http/respond";
import { endpoint, PUBLIC_SLOTS_LIMIT, route } from "@/lib/http/route";
import { SlotList, SlotsQuery } from "@/lib/schemas/booking";
import { LINK_GONE, LinkParams } from "@/lib/schemas/one-time-link";
import { getLinkBookableOrThrow } from "@/lib/services/bookable/one-time-link";
import { listSlotsOf } from "@/lib/services/bookable/slots";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/public/links/{token}/slots", {
  GET: route(
    {
      auth: "none",
      summary: "A one-time link's open slots between two dates (inclusive, at most 31 days apart) in the guest's timezone",
      tags: ["Public booking"],
      params: LinkParams,
      query: SlotsQuery,
      ipLimit: PUBLIC_SLOTS_LIMIT,
      responses: { 200: { description: "Slots sorted by start", schema: SlotList } },
      errors: [404, LINK_GONE],
    },
    async ({ db, params, query }) => {
      const now = Date.now();
      const kept = await listSlotsOf(db, async () => (await getLinkBookableOrThrow(db, params.token, now)).bookable, query, now);
      return jsonText(kept.value);
    },
  ),
});
