// POST /api/v1/public/links/{token}/bookings – a guest books through a one-time link, once
import { bookingPost } from "@/lib/http/booking-route";
import { endpoint } from "@/lib/http/route";
import { LINK_GONE, LinkParams } from "@/lib/schemas/one-time-link";
import { createLinkBooking } from "@/lib/services/bookings/create";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/public/links/{token}/bookings", {
  POST: bookingPost(
    {
      summary: "Book a slot through a one-time link: the link's event type, once (a series is refused: occurrences must be 1)",
      params: LinkParams,
      errors: [LINK_GONE],
    },
    (db, params, args) => createLinkBooking(db, { token: params.token, ...args }),
  ),
});
