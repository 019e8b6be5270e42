// GET /api/v1/me/bookings – the host's bookings, by start time, paginated
import { endpoint, json, route } from "@/lib/http/route";
import { BookingList, BookingListQuery } from "@/lib/schemas/booking";
import { listBookings } from "@/lib/services/bookings/list";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/bookings", {
  GET: route(
    {
      auth: "host",
      summary: "List bookings (status, from/to dates in the host's timezone, page, limit ≤ 100)",
      tags: ["Bookings"],
      query: BookingListQuery,
      responses: { 200: { description: "One page of bookings, ascending by start time", schema: BookingList } },
    },
    async ({ db, host, query }) => json(await listBookings(db, host, query)),
  ),
});
