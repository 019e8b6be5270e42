import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { bookings, eventTypes, type UserRow } from "@/db/schema";
import { toBooking, type BookingDto } from "@/lib/dto";
import { isOfferedSlot } from "@/lib/slots";
import { isoUtc } from "@/lib/time";
import { assertModifiable, getBookingForHostOrThrow, lockHostBookings, overlapAsConflict, retryOnDeadlock, slotUnavailable } from "./booking-store";
import { enqueueBookingEvent } from "./outbox";
import { invalidateHost } from "./schedule-cache";
import { loadSlotData } from "./slot-input";

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * POST /me/bookings/{id}/reschedule: moves an upcoming booking to a new start that is an offered
 * slot when the booking itself is ignored. Same id, status confirmed, previousStartTime kept.
 * The exclusion constraint still guards the move against a concurrent booking.
 */
export async function rescheduleBooking(db: Db, host: UserRow, bookingId: string, start: number, now: number): Promise<BookingDto> {
  const moved = await retryOnDeadlock(() => db.transaction(async (tx) => {
    await lockHostBookings(tx, host.id);
    const { booking } = await getBookingForHostOrThrow(tx, host, bookingId, true);
    assertModifiable(booking, now);
    const [eventType] = await tx.select().from(eventTypes).where(eq(eventTypes.id, booking.eventTypeId));
    const data = await loadSlotData(tx, host, eventType!, { from: start - DAY, to: start + DAY, ignoreBookingId: booking.id });
    if (!isOfferedSlot({ ...data, now }, start)) throw slotUnavailable();

    const end = start + eventType!.durationMinutes * MINUTE;
    const [row] = await tx
      .update(bookings)
      .set({
        status: "confirmed",
        startTime: new Date(start),
        endTime: new Date(end),
        bufferBeforeMinutes: eventType!.bufferBeforeMinutes,
        bufferAfterMinutes: eventType!.bufferAfterMinutes,
        blockedStart: new Date(start - eventType!.bufferBeforeMinutes * MINUTE),
        blockedEnd: new Date(end + eventType!.bufferAfterMinutes * MINUTE),
        previousStartTime: booking.startTime,
        updatedAt: new Date(now),
      })
      .where(eq(bookings.id, booking.id))
      .returning()
      .catch((error: unknown) => {
        throw overlapAsConflict(error);
      });
    await enqueueBookingEvent(tx, "booking.rescheduled", host.id, now, {
      bookingId: booking.id,
      previousStartTime: isoUtc(booking.startTime),
      previousEndTime: isoUtc(booking.endTime),
      startTime: isoUtc(row!.startTime),
      endTime: isoUtc(row!.endTime),
    });
    return toBooking(row!, eventType!);
  }));
  invalidateHost(host.id);
  return moved;
}
