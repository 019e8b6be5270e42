// GET /api/v1/public/bookings/{token}.ics – the guest's booking as an iCalendar file
import { notFound } from "@/lib/errors";
import { endpoint, route } from "@/lib/http/route";
import { GuestIcsParams } from "@/lib/schemas/booking";
import { guestBookingIcs } from "@/lib/services/bookings/ics";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/public/bookings/{token}.ics", {
  GET: route(
    {
      auth: "none",
      summary: "The booking's current invitation (text/calendar) for the token of its cancelUrl",
      tags: ["Public booking"],
      params: GuestIcsParams,
      responses: { 200: { description: "text/calendar: METHOD:REQUEST, or METHOD:CANCEL once cancelled" } },
      errors: [404],
    },
    async ({ db, params }) => {
      // Next.js hands the whole segment to [token]: "<token>.ics".
      if (!params.token.endsWith(".ics")) throw notFound("Booking");
      const { ics } = await guestBookingIcs(db, params.token.slice(0, -".ics".length));
      return new Response(ics, {
        headers: {
          "content-type": "text/calendar; charset=utf-8",
          "content-disposition": 'attachment; filename="booking.ics"',
          // The address is a bearer secret: no shared cache may keep the answer.
          "cache-control": "private, no-store",
        },
      });
    },
  ),
});
