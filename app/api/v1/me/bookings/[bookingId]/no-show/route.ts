// POST /api/v1/me/bookings/{bookingId}/no-show – the host marks the guest as a no-show (or takes it back)
import { endpoint, json, route } from "@/lib/http/route";
import { Booking, BookingParams, NoShowBody } from "@/lib/schemas/booking";
import { setNoShow } from "@/lib/services/bookings/no-show";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/bookings/{bookingId}/no-show", {
  POST: route(
    {
      auth: "host",
      summary: "Mark a confirmed booking's guest as not having come, or take the mark back; only once the booking has started (else 409)",
      tags: ["Bookings"],
      params: BookingParams,
      body: NoShowBody,
      responses: { 200: { description: "The booking with its noShow", schema: Booking } },
      errors: [404, 409],
    },
    async ({ db, host, params, body }) => json(await setNoShow(db, host, params.bookingId, body.noShow, Date.now())),
  ),
});
