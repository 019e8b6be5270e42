// POST /api/v1/me/bookings/{bookingId}/confirm – the host confirms a pending request
import { endpoint, json, route } from "@/lib/http/route";
import { Booking, BookingParams } from "@/lib/schemas/booking";
import { confirmBooking } from "@/lib/services/bookings/confirm";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/bookings/{bookingId}/confirm", {
  POST: route(
    {
      auth: "host",
      summary: "Confirm a pending booking request (event types with requiresConfirmation); 409 when it is not pending or its start has passed",
      tags: ["Bookings"],
      params: BookingParams,
      responses: { 200: { description: "The confirmed booking", schema: Booking } },
      errors: [404, 409],
    },
    async ({ db, host, params }) => json(await confirmBooking(db, host, params.bookingId, Date.now())),
  ),
});
