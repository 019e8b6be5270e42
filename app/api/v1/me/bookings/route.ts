// GET /api/v1/me/bookings – the host's bookings, by start time, paginated; or the walk of their changes (updatedSince, cursor)
import { endpoint, json, route } from "@/lib/http/route";
import { BookingListQuery, BookingPageOrChanges } from "@/lib/schemas/booking";
import { listBookings } from "@/lib/services/bookings/list";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/bookings", {
  GET: route(
    {
      auth: "host",
      summary: "List bookings (status, from/to dates in the host's timezone, page, limit ≤ 100), or walk their changes (updatedSince, cursor)",
      tags: ["Bookings"],
      query: BookingListQuery,
      responses: {
        200: {
          description:
            "One page of bookings, ascending by start time, with pagination {page, limit, total}; with updatedSince or cursor, " +
            "one step of the walk of changes, ascending by updatedAt then id, with pagination {limit, nextCursor}",
          schema: BookingPageOrChanges,
        },
      },
    },
    async ({ db, host, query }) => json(await listBookings(db, host, query)),
  ),
});
