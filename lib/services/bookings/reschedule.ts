import "server-only";
import { eq } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { bookings, eventTypes, users, type BookingRow, type UserRow } from "@/db/schema";
import { toBooking, type BookingDto } from "@/lib/dto";
import { notFound } from "@/lib/errors";
import { isOfferedSlot } from "@/lib/slots";
import { isoUtc } from "@/lib/time/instants";
import { assertModifiable, getBookingForHostOrThrow, hashCancelToken, overlapAsConflict, slotUnavailable } from "./store";
import { messagesOf } from "@/lib/i18n/catalogs";
import { fill } from "@/lib/i18n/fill";
import { asLocale } from "@/lib/i18n/locales";
import { guestWhen } from "./cancel";
import { writeForHost } from "@/lib/services/schedule/host-writes";
import { enqueueBookingEvent } from "@/lib/outbox/booking-events";
import { loadSlotData } from "@/lib/services/schedule/load";

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * Moves an upcoming booking to a new start that is an offered slot when the booking itself is
 * ignored: same id, status confirmed, previousStartTime kept, booking.rescheduled in the outbox.
 * Runs inside the host's booking lock; the exclusion constraint still guards the move.
 */
async function moveBooking(tx: Tx, host: UserRow, booking: BookingRow, start: number, now: number, by: "host" | "guest"): Promise<BookingDto> {
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
      // The calendar invitation's SEQUENCE: the moved event replaces the one calendars hold.
      sequence: booking.sequence + 1,
    })
    .where(eq(bookings.id, booking.id))
    .returning()
    .catch((error: unknown) => {
      throw overlapAsConflict(error);
    });
  await enqueueBookingEvent(tx, "booking.rescheduled", row!, now, {
    bookingId: booking.id,
    rescheduledBy: by,
    previousStartTime: isoUtc(booking.startTime),
    previousEndTime: isoUtc(booking.endTime),
    startTime: isoUtc(row!.startTime),
    endTime: isoUtc(row!.endTime),
  });
  return toBooking(row!, eventType!);
}

/** POST /me/bookings/{id}/reschedule: the host moves one of their upcoming bookings. */
export async function rescheduleBooking(db: Db, host: UserRow, bookingId: string, start: number, now: number): Promise<BookingDto> {
  return writeForHost(
    db,
    host.id,
    async (tx) => {
      const { booking } = await getBookingForHostOrThrow(tx, host, bookingId, true);
      return moveBooking(tx, host, booking, start, now, "host");
    },
    { lockBookings: true },
  );
}

export type GuestRescheduled = { id: string; status: "confirmed"; startTime: string; endTime: string; previousStartTime: string; message: string };

/**
 * POST /public/reschedule: the guest moves their booking with the token of their links, under
 * the same guarantees as a host's move. Unknown token: 404.
 */
export async function rescheduleBookingAsGuest(db: Db, token: string, start: number, now: number): Promise<GuestRescheduled> {
  const [found] = await db
    .select({ booking: bookings, host: users })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.hostId))
    .where(eq(bookings.cancelTokenHash, hashCancelToken(token)))
    .limit(1);
  if (!found) throw notFound("Booking");
  const moved = await writeForHost(
    db,
    found.host.id,
    async (tx) => {
      // Read again under the lock: a cancel or another move may have come first.
      const [booking] = await tx.select().from(bookings).where(eq(bookings.id, found.booking.id)).for("update");
      return moveBooking(tx, found.host, booking!, start, now, "guest");
    },
    { lockBookings: true },
  );
  const row = { ...found.booking, startTime: new Date(moved.startTime) };
  return {
    id: moved.id,
    status: "confirmed",
    startTime: moved.startTime,
    endTime: moved.endTime,
    previousStartTime: moved.previousStartTime!,
    message: fill(messagesOf(asLocale(row.guestLanguage)).mail.movedMessage, {
      title: moved.eventType.title,
      host: found.host.fullName,
      when: `${guestWhen(row)} (${row.guestTimezone})`,
    }),
  };
}
