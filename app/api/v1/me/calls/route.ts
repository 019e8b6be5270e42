// GET /api/v1/me/calls – the outbound calls placed for the host's bookings, newest first, paginated
import { endpoint, json, route } from "@/lib/http/route";
import { CallList, CallListQuery } from "@/lib/schemas/calls";
import { listCalls } from "@/lib/services/calls/list";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/calls", {
  GET: route(
    {
      auth: "host",
      summary: "List the reminder and follow-up calls placed for your bookings (bookingId, page, limit ≤ 100)",
      tags: ["Outbound calls"],
      query: CallListQuery,
      responses: { 200: { description: "One page of calls, newest first", schema: CallList } },
    },
    async ({ db, host, query }) => json(await listCalls(db, host, query)),
  ),
});
