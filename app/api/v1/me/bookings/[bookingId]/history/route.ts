// GET /api/v1/me/bookings/{bookingId}/history – what happened to a booking, oldest first
import { endpoint, json, route } from "@/lib/http/route";
import { BookingHistory, BookingParams } from "@/lib/schemas/booking";
import { listBookingHistory } from "@/lib/services/bookings/history";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/bookings/{bookingId}/history", {
  GET: route(
    {
      auth: "host",
      summary: "A booking's history, oldest first: created, confirmed, rescheduled (from, to), cancelled (reason), no_show (noShow); who acted (guest, host with userId, system)",
      tags: ["Bookings"],
      params: BookingParams,
      responses: { 200: { description: "The entries, oldest first", schema: BookingHistory } },
      errors: [404],
    },
    async ({ db, host, params }) => json(await listBookingHistory(db, host, params.bookingId)),
  ),
});
