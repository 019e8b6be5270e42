// POST /api/v1/me/bookings/{bookingId}/cancel – the host cancels a booking
import { endpoint, json, route } from "@/lib/http/route";
import { Booking, BookingParams, HostCancelBody } from "@/lib/schemas/booking";
import { cancelBookingAsHost } from "@/lib/services/bookings/cancel";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/bookings/{bookingId}/cancel", {
  POST: route(
    {
      auth: "host",
      summary: "Cancel an upcoming booking, with an optional reason",
      tags: ["Bookings"],
      params: BookingParams,
      body: HostCancelBody,
      responses: { 200: { description: "The cancelled booking", schema: Booking } },
      errors: [404, 409],
    },
    async ({ db, host, params, body }) => json(await cancelBookingAsHost(db, host, params.bookingId, body.reason, Date.now(), body.scope)),
  ),
});
