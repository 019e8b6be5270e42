// POST /api/v1/me/bookings/{bookingId}/decline – the host declines a pending request
import { endpoint, json, route } from "@/lib/http/route";
import { Booking, BookingParams, DeclineBody } from "@/lib/schemas/booking";
import { declineBooking } from "@/lib/services/bookings/decline";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/bookings/{bookingId}/decline", {
  POST: route(
    {
      auth: "host",
      summary: "Decline a pending booking request, with an optional reason: it is cancelled by the host and the time is free again",
      tags: ["Bookings"],
      params: BookingParams,
      body: DeclineBody,
      responses: { 200: { description: "The declined booking: status cancelled, cancelledBy host", schema: Booking } },
      errors: [404, 409],
    },
    async ({ db, host, params, body }) => json(await declineBooking(db, host, params.bookingId, body.reason, Date.now())),
  ),
});
