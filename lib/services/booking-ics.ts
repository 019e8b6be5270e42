import type { Db } from "@/db";
import { notFound } from "@/lib/errors";
import { getConfig } from "@/lib/config";
import { calendarDetails } from "@/lib/guest/calendar-links";
import { bookingIcs } from "@/lib/notifications/booking-ics";
import { loadBookingFactsByGuestToken } from "./booking-facts";

/**
 * The guest's current invitation for their booking (GET /public/bookings/{token}.ics): the
 * REQUEST at the booking's present time and SEQUENCE, or its CANCEL once cancelled — the same
 * calendar object the emails carry, so importing it updates the event instead of adding one.
 */
export async function guestBookingIcs(db: Db, token: string): Promise<{ ics: string; title: string }> {
  const facts = await loadBookingFactsByGuestToken(db, token);
  if (!facts) throw notFound("Booking");
  const { booking, title, host } = facts;
  const ics = bookingIcs({
    bookingId: booking.id,
    sequence: booking.sequence,
    cancelled: booking.status === "cancelled",
    title,
    withName: host.fullName,
    start: booking.startTime,
    end: booking.endTime,
    location: booking.location,
    // The guest's copy says where to see or change the booking (the token is the guest's own).
    description: calendarDetails(`${getConfig().appUrl}/booking/${token}`),
    host: { name: host.fullName, email: host.email },
    guest: { name: booking.guestName, email: booking.guestEmail },
    stamp: booking.updatedAt,
  });
  return { ics, title };
}
