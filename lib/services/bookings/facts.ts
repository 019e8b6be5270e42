import "server-only";
import { eq, type SQL } from "drizzle-orm";
import type { Db } from "@/db";
import { bookings, eventTypes, users } from "@/db/schema";
import type { BookingFacts } from "@/lib/notifications/booking-facts";
import { hashCancelToken } from "./store";

// What messages about a booking need besides the booking itself: the event type's title and
// questions, and who the host is (name, address, zone). One query, for emails and calendar files alike.

export type { BookingFacts };

async function loadWhere(db: Db, where: SQL): Promise<BookingFacts | undefined> {
  const [found] = await db
    .select({
      booking: bookings,
      title: eventTypes.title,
      questions: eventTypes.customQuestions,
      host: { fullName: users.fullName, email: users.email, timezone: users.timezone },
    })
    .from(bookings)
    .innerJoin(eventTypes, eq(eventTypes.id, bookings.eventTypeId))
    .innerJoin(users, eq(users.id, bookings.hostId))
    .where(where)
    .limit(1);
  return found;
}

export function loadBookingFacts(db: Db, bookingId: string): Promise<BookingFacts | undefined> {
  return loadWhere(db, eq(bookings.id, bookingId));
}

/** The booking a guest's token (from cancelUrl) belongs to. */
export function loadBookingFactsByGuestToken(db: Db, token: string): Promise<BookingFacts | undefined> {
  return loadWhere(db, eq(bookings.cancelTokenHash, hashCancelToken(token)));
}
