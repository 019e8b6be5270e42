import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db";
import { bookings, type BookingRow, type UserRow } from "@/db/schema";
import { toBooking, type BookingDto } from "@/lib/dto";
import { AppError } from "@/lib/errors";
import { enqueueBookingEvent } from "@/lib/outbox/booking-events";
import { hostActor, recordHistory } from "./history";
import { getBookingForHostOrThrow } from "./store";
import { laterOccurrences } from "./cancel";
import { loadBookingPeople, loadPeopleOf, peopleView } from "./people";
import { writeBookings } from "./write-booking";

/** Confirm and decline answer a request: a pending booking whose start has not come yet. */
export function assertPending(booking: BookingRow, now: number): void {
  if (booking.status !== "pending") {
    throw new AppError("booking_not_modifiable", `This booking is ${booking.status}, not a request waiting for an answer`, { status: booking.status });
  }
  if (booking.startTime.getTime() <= now) {
    throw new AppError("booking_not_modifiable", "This request's time has come: it can no longer be confirmed or declined");
  }
}

/**
 * POST /me/bookings/{id}/confirm: a host (any host of a team booking) confirms a pending request
 * (decisions §16). The time was held already, so nothing of the hosts' slots changes: one
 * conditional update (a concurrent decline or a second confirm finds the booking no longer
 * pending), its history entry and booking.confirmed, in one transaction, under the hosts'
 * booking locks as every change of a booking (write-booking.ts): it changes no blocked time, but
 * a walk of the hosts' changes (changes.ts) must not pass it.
 */
export async function confirmBooking(db: Db, host: UserRow, bookingId: string, now: number): Promise<BookingDto> {
  const { booking, eventType } = await getBookingForHostOrThrow(db, host, bookingId);
  assertPending(booking, now);
  // A series asks once: confirming it confirms every later occurrence still waiting (decisions §19).
  const waiting = (await laterOccurrences(db, booking, now)).filter((b) => b.status === "pending").map((b) => b.id);
  const ids = [booking.id, ...waiting];
  const row = await writeBookings(db, ids, async (tx) => {
    const updated = await tx
      .update(bookings)
      .set({ status: "confirmed" })
      .where(and(inArray(bookings.id, ids), eq(bookings.status, "pending")))
      .returning();
    const own = updated.find((b) => b.id === booking.id);
    if (!own) {
      const [fresh] = await tx.select().from(bookings).where(eq(bookings.id, booking.id));
      assertPending(fresh!, now);
      throw new Error(`booking ${booking.id}: pending but not confirmed`);
    }
    // Read after the update: the events' series show every occurrence confirmed.
    const people = await loadBookingPeople(tx, updated.map((b) => b.id));
    for (const b of updated) {
      const them = people.get(b.id) ?? { hosts: [], team: null };
      await recordHistory(tx, b.id, "confirmed", hostActor(host), now);
      await enqueueBookingEvent(tx, "booking.confirmed", b, { hostIds: them.hosts.map((h) => h.userId) }, now, toBooking(b, eventType, peopleView(them)));
    }
    return own;
  });
  return toBooking(row, eventType, peopleView(await loadPeopleOf(db, row.id)));
}
