import "server-only";
import type { Db } from "@/db";
import type { UserRow } from "@/db/schema";
import { toBooking, type BookingDto } from "@/lib/dto";
import { laterOccurrences, markAllCancelled, markCancelled } from "./cancel";
import { assertPending } from "./confirm";
import { hostActor } from "./history";
import { loadPeopleOf } from "./people";
import { getBookingForHostOrThrow } from "./store";

/**
 * POST /me/bookings/{id}/decline: a host declines a pending request (decisions §16). A decline is
 * the host's cancel of a request: status cancelled, cancelledBy host, the reason kept, the time
 * freed; its history entry and its booking.cancelled event say `declined`. Only while it is still
 * pending: a confirm that came first makes this a 409. A series' request is declined whole: the
 * occurrence and every later one still pending.
 */
export async function declineBooking(db: Db, host: UserRow, bookingId: string, reason: string | undefined, now: number): Promise<BookingDto> {
  const { booking, eventType } = await getBookingForHostOrThrow(db, host, bookingId);
  assertPending(booking, now);
  // A series asks once: declining it declines every occurrence still waiting (decisions §19).
  const waiting = (await laterOccurrences(db, booking, now)).filter((b) => b.status === "pending");
  const kind = { declined: true, only: "pending" as const };
  const { row, changed } = waiting.length > 0
    ? await markAllCancelled(db, [booking, ...waiting], hostActor(host), reason || null, now, kind)
    : await markCancelled(db, booking, hostActor(host), reason || null, now, kind);
  if (!changed) assertPending(row, now);
  return toBooking(row, eventType, await loadPeopleOf(db, row.id));
}
