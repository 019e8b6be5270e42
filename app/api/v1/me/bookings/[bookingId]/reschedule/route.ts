// POST /api/v1/me/bookings/{bookingId}/reschedule – the host moves a booking to another slot
import { endpoint, json, route } from "@/lib/http/route";
import { Booking, BookingParams, RescheduleBody } from "@/lib/schemas/booking";
import { rescheduleBooking } from "@/lib/services/bookings/reschedule";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/bookings/{bookingId}/reschedule", {
  POST: route(
    {
      auth: "host",
      summary: "Move an upcoming booking to a new start that is an offered slot (the booking itself ignored)",
      tags: ["Bookings"],
      params: BookingParams,
      body: RescheduleBody,
      responses: { 200: { description: "The booking: same id, new times, confirmed, previousStartTime set", schema: Booking } },
      errors: [404, 409],
    },
    async ({ db, host, params, body }) => json(await rescheduleBooking(db, host, params.bookingId, body.startTime, Date.now())),
  ),
});
