import "server-only";
import { eq, type SQL } from "drizzle-orm";
import type { Db } from "@/db";
import { bookings, eventTypes, users } from "@/db/schema";
import type { BookingFacts } from "@/lib/notifications/booking-facts";
import { loadPeopleOf } from "./people";
import { hashCancelToken } from "./store";

// What messages about a booking need besides the booking itself: the event type's title and
// questions, who the host is (name, address, zone), every host and the team. Two queries, for
// emails and calendar writes alike.

export type { BookingFacts };

async function loadWhere(db: Db, where: SQL, hostId?: string): Promise<BookingFacts | undefined> {
  const [found] = await db
    .select({
      booking: bookings,
      title: eventTypes.title,
      questions: eventTypes.customQuestions,
      host: { userId: users.id, fullName: users.fullName, email: users.email, timezone: users.timezone },
    })
    .from(bookings)
    .innerJoin(eventTypes, eq(eventTypes.id, bookings.eventTypeId))
    .innerJoin(users, eq(users.id, hostId ?? bookings.hostId))
    .where(where)
    .limit(1);
  if (!found) return undefined;
  const { hosts, team } = await loadPeopleOf(db, found.booking.id);
  return { ...found, hosts: hosts.map(({ userId, fullName, email, timezone }) => ({ userId, fullName, email, timezone })), team };
}

/**
 * A booking's facts, written for `hostId` (one of its hosts, or one a reassignment took it from;
 * by default the booking's own host). Undefined when the booking or that host is gone.
 */
export function loadBookingFacts(db: Db, bookingId: string, hostId?: string): Promise<BookingFacts | undefined> {
  return loadWhere(db, eq(bookings.id, bookingId), hostId);
}

/** The booking a guest's token (from cancelUrl) belongs to. */
export function loadBookingFactsByGuestToken(db: Db, token: string): Promise<BookingFacts | undefined> {
  return loadWhere(db, eq(bookings.cancelTokenHash, hashCancelToken(token)));
}
