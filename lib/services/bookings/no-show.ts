import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { bookings, type BookingRow, type UserRow } from "@/db/schema";
import { toBooking, type BookingDto } from "@/lib/dto";
import { AppError } from "@/lib/errors";
import { enqueueBookingEvent } from "@/lib/outbox/booking-events";
import { hostActor, recordHistory } from "./history";
import { peopleView } from "./people";
import { getBookingForHostOrThrow } from "./store";
import { writeBooking } from "./write-booking";

/** A no-show is marked on a confirmed booking whose start has passed (decisions §16). */
function assertMarkable(booking: BookingRow, now: number): void {
  if (booking.status !== "confirmed") {
    throw new AppError("booking_not_modifiable", `A ${booking.status} booking has no guest to mark as a no-show`, { status: booking.status });
  }
  if (booking.startTime.getTime() > now) {
    throw new AppError("booking_not_modifiable", "A no-show can be marked only once the booking has started");
  }
}

/**
 * POST /me/bookings/{id}/no-show {noShow}: a host marks the guest as not having come, or takes
 * the mark back. A change writes its history entry and booking.no_show_updated (webhooks only);
 * setting the value it already has changes nothing and tells no one. Under the hosts' booking
 * locks, as every change of a booking (write-booking.ts).
 */
export async function setNoShow(db: Db, host: UserRow, bookingId: string, noShow: boolean, now: number): Promise<BookingDto> {
  const { booking, eventType } = await getBookingForHostOrThrow(db, host, bookingId);
  assertMarkable(booking, now);
  const { row, people } = await writeBooking(db, booking.id, async (tx, people) => {
    const [updated] = await tx
      .update(bookings)
      .set({ noShow })
      .where(and(eq(bookings.id, booking.id), eq(bookings.status, "confirmed"), eq(bookings.noShow, !noShow)))
      .returning();
    const [current] = updated ? [updated] : await tx.select().from(bookings).where(eq(bookings.id, booking.id));
    assertMarkable(current!, now); // cancelled a moment ago
    if (!updated) return { row: current!, people };
    await recordHistory(tx, updated.id, "no_show", hostActor(host), now, { noShow });
    await enqueueBookingEvent(tx, "booking.no_show_updated", updated, { hostIds: people.hosts.map((h) => h.userId) }, now, {
      bookingId: updated.id,
      noShow,
      ...peopleView(people),
    });
    return { row: updated, people };
  });
  return toBooking(row, eventType, people);
}
