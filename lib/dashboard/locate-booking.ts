import "server-only";
import type { UserRow } from "@/db/schema";
import { BookingParams } from "@/lib/schemas/booking";
import { positionInList } from "@/lib/services/bookings/list";
import { getBookingForHostOrThrow } from "@/lib/services/bookings/store";
import { AppError } from "@/lib/errors";
import { getDb } from "@/lib/store/database";
import { isoUtc } from "@/lib/time/instants";
import { BOOKING_VIEWS, BOOKINGS_PAGE_SIZE, viewOfBooking, type BookingView } from "./booking-views";
import { listQueryOf } from "./prefetch";

/**
 * Where the bookings page opens for a booking an email links to (`?booking=<id>`): the view it is
 * listed in and the page of that view it is on. Undefined when the host does not host it (never
 * theirs, or a round-robin move gave it to another host) or no view lists it.
 */
export async function locateBooking(host: UserRow, bookingId: string, now: number = Date.now()): Promise<{ view: BookingView; page: number } | undefined> {
  // An id the API would refuse as a path segment (NUL, too long) names no booking.
  if (!BookingParams.safeParse({ bookingId }).success) return undefined;
  const db = await getDb();
  let booking;
  try {
    ({ booking } = await getBookingForHostOrThrow(db, host, bookingId));
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return undefined;
    throw error;
  }
  const view = viewOfBooking({ status: booking.status, endTime: isoUtc(booking.endTime) }, now);
  if (!view) return undefined;
  const position = await positionInList(db, host, bookingId, listQueryOf(BOOKING_VIEWS[view].filter), now);
  if (position === undefined) return undefined;
  return { view, page: Math.floor(position / BOOKINGS_PAGE_SIZE) + 1 };
}
