import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { bookings, type BookingRow, type UserRow } from "@/db/schema";
import { toBooking, type BookingDto } from "@/lib/dto";
import { AppError } from "@/lib/errors";
import { enqueueBookingEvent } from "@/lib/outbox/booking-events";
import { hostActor, recordHistory } from "./history";
import { getBookingForHostOrThrow } from "./store";
import { writeBooking } from "./write-booking";

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
  const { row, people } = await writeBooking(db, booking.id, async (tx, people) => {
    const [updated] = await tx
      .update(bookings)
      .set({ status: "confirmed" })
      .where(and(eq(bookings.id, booking.id), eq(bookings.status, "pending")))
      .returning();
    if (!updated) {
      const [fresh] = await tx.select().from(bookings).where(eq(bookings.id, booking.id));
      assertPending(fresh!, now);
      throw new Error(`booking ${booking.id}: pending but not confirmed`);
    }
    await recordHistory(tx, updated.id, "confirmed", hostActor(host), now);
    const dto = toBooking(updated, eventType, people);
    await enqueueBookingEvent(tx, "booking.confirmed", updated, { hostIds: people.hosts.map((h) => h.userId) }, now, dto);
    return { row: updated, people };
  });
  return toBooking(row, eventType, people);
}
