// POST /api/v1/public/teams/{teamSlug}/{eventSlug}/bookings – a guest books a team event type
import { bookingPost } from "@/lib/http/booking-route";
import { endpoint } from "@/lib/http/route";
import { PublicTeamEventParams } from "@/lib/schemas/booking";
import { createTeamBooking } from "@/lib/services/bookings/create";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/public/teams/{teamSlug}/{eventSlug}/bookings", {
  POST: bookingPost(
    { summary: "Book a team event type's slot: round robin assigns one host by the rule, collective books every host", params: PublicTeamEventParams },
    (db, params, args) => createTeamBooking(db, { teamSlug: params.teamSlug, slug: params.eventSlug, ...args }),
  ),
});
