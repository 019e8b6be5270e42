// POST /api/v1/public/reschedule – a guest moves their booking with the token of their links
import { endpoint, json, route } from "@/lib/http/route";
import { GuestRescheduleBody, GuestRescheduled } from "@/lib/schemas/booking";
import { rescheduleBookingAsGuest } from "@/lib/services/bookings/reschedule";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/public/reschedule", {
  POST: route(
    {
      auth: "none",
      summary: "Move a booking to another open time, with the guest's token (from cancelUrl or rescheduleUrl)",
      tags: ["Public booking"],
      body: GuestRescheduleBody,
      responses: { 200: { description: "Moved; same booking id", schema: GuestRescheduled } },
      errors: [404, 409],
    },
    async ({ db, body }) => json(await rescheduleBookingAsGuest(db, body.token, body.startTime, Date.now())),
  ),
});
