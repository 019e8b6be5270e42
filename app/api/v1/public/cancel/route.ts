// POST /api/v1/public/cancel – a guest cancels with the token from their cancelUrl
import { endpoint, json, route } from "@/lib/http/route";
import { GuestCancelBody, GuestCancelled } from "@/lib/schemas/booking";
import { cancelBookingAsGuest } from "@/lib/services/bookings/cancel";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/public/cancel", {
  POST: route(
    {
      auth: "none",
      summary: "Cancel a booking with its guest token (repeating it answers the same)",
      tags: ["Public booking"],
      body: GuestCancelBody,
      responses: { 200: { description: "Cancelled", schema: GuestCancelled } },
      errors: [404, 409],
    },
    async ({ db, body }) => json(await cancelBookingAsGuest(db, body.token, Date.now(), body.reason, body.scope)),
  ),
});
