import "server-only";
import type { Db } from "@/db";
import type { UserRow } from "@/db/schema";
import { toBooking, type BookingDto } from "@/lib/dto";
import { markCancelled } from "./cancel";
import { assertPending } from "./confirm";
import { hostActor } from "./history";
import { loadPeopleOf } from "./people";
import { getBookingForHostOrThrow } from "./store";

/**
 * POST /me/bookings/{id}/decline: a host declines a pending request (decisions §16). A decline is
 * the host's cancel of a request: status cancelled, cancelledBy host, the reason kept, the time
 * freed; its history entry and its booking.cancelled event say `declined`. Only while it is still
 * pending: a confirm that came first makes this a 409.
 */
export async function declineBooking(db: Db, host: UserRow, bookingId: string, reason: string | undefined, now: number): Promise<BookingDto> {
  const { booking, eventType } = await getBookingForHostOrThrow(db, host, bookingId);
  assertPending(booking, now);
  const { row, changed } = await markCancelled(db, booking, hostActor(host), reason || null, now, { declined: true, onlyPending: true });
  if (!changed) assertPending(row, now);
  return toBooking(row, eventType, await loadPeopleOf(db, row.id));
}
