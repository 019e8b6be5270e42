import "server-only";
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { bookings, type BookingRow } from "@/db/schema";
import { guestLinks } from "@/lib/links";
import { guestTokenOf } from "./guest-token";

/** One occurrence of a series as its guest's pages list it: when, its status and its own page. */
export type GuestOccurrence = Pick<BookingRow, "id" | "startTime" | "endTime" | "status"> & {
  /** Its own manage page (null when its token is no longer kept); the one being shown is `own`. */
  manageUrl: string | null;
  own: boolean;
};

/**
 * Every occurrence of the booking's series in order (decisions §19), each with its own manage
 * page: one guest booked them all, so each occurrence's page may lead to the others. Empty
 * outside a series.
 */
export async function seriesOfGuestBooking(db: Db, booking: BookingRow): Promise<GuestOccurrence[]> {
  if (booking.seriesId === null) return [];
  const rows = await db
    .select({ id: bookings.id, startTime: bookings.startTime, endTime: bookings.endTime, status: bookings.status })
    .from(bookings)
    .where(eq(bookings.seriesId, booking.seriesId))
    .orderBy(asc(bookings.startTime), asc(bookings.id));
  return Promise.all(
    rows.map(async (row) => {
      const token = row.id === booking.id ? undefined : await guestTokenOf(db, row.id);
      return { ...row, own: row.id === booking.id, manageUrl: token ? guestLinks(token).manageUrl : null };
    }),
  );
}
