// POST /api/v1/public/{username}/{eventSlug}/bookings – a guest books a slot
import { bookingPost } from "@/lib/http/booking-route";
import { endpoint } from "@/lib/http/route";
import { PublicEventParams } from "@/lib/schemas/booking";
import { createBooking } from "@/lib/services/bookings/create";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/public/{username}/{eventSlug}/bookings", {
  POST: bookingPost({ summary: "Book a slot", params: PublicEventParams }, (db, params, args) =>
    createBooking(db, { username: params.username, slug: params.eventSlug, ...args }),
  ),
});
