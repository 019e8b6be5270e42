import "server-only";
import { createHash } from "node:crypto";
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { pgConstraint, pgErrorCode } from "@/db/client";
import { bookingHosts, bookings, eventTypes, type BookingRow, type UserRow } from "@/db/schema";
import { AppError, notFound } from "@/lib/errors";
import { isoUtc } from "@/lib/time/instants";

// Booking rows: the shared reads and writes of the booking services.

export type BookingWithEventType = { booking: BookingRow; eventType: { id: string; title: string } };

/** The cancel token is a bearer secret: only its SHA-256 is stored (≥128 bits of entropy, no salt needed). */
export function hashCancelToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function slotUnavailable(): AppError {
  return new AppError("slot_unavailable", "This time is no longer available; please pick another slot");
}

/** A series of which some occurrences are not free (decisions §19): all or nothing, and the guest is told which. */
export function seriesUnavailable(unavailable: number[]): AppError {
  const n = unavailable.length;
  return new AppError(
    "slot_unavailable",
    `${n === 1 ? "One date" : `${n} dates`} of this series ${n === 1 ? "is" : "are"} not available; nothing was booked. Pick another time or fewer sessions`,
    { unavailable: unavailable.map((at) => isoUtc(new Date(at))) },
  );
}


/**
 * The exclusion constraint's 23P01 (an overlapping booking won a race) becomes a 409; the event
 * type's foreign key (23503: it was deleted while the booking was being made) a 404.
 */
export function overlapAsConflict(error: unknown): unknown {
  const code = pgErrorCode(error);
  if (code === "23P01") return slotUnavailable();
  // The same guest's second seat of one start (bookings_seat_guest_key, decisions §19).
  if (code === "23505" && pgConstraint(error) === "bookings_seat_guest_key") {
    return new AppError("conflict", "This email already has a seat at this time", { field: "guestEmail" });
  }
  if (code === "23503") return notFound("Event type");
  return error;
}

export async function insertBookingOrConflict(tx: Tx, values: typeof bookings.$inferInsert): Promise<BookingRow> {
  try {
    const [row] = await tx.insert(bookings).values(values).returning();
    return row!;
  } catch (error) {
    throw overlapAsConflict(error);
  }
}

/** When a booking was made, ISO with milliseconds ("" when it is gone). */
export async function bookingCreatedAt(db: Db, bookingId: string): Promise<string> {
  const [row] = await db.select({ createdAt: bookings.createdAt }).from(bookings).where(eq(bookings.id, bookingId));
  return row ? row.createdAt.toISOString() : "";
}

/** The bookings a user hosts, in whichever role (booking_hosts): personal, round-robin or collective. */
export function hostedBy(userId: string): SQL {
  return sql`exists (select 1 from ${bookingHosts} where ${bookingHosts.bookingId} = ${bookings.id} and ${bookingHosts.userId} = ${userId})`;
}

/** A booking the host hosts (any host of a team booking may act on it), with its event type, or 404: another host's booking is never revealed. */
export async function getBookingForHostOrThrow(db: Db | Tx, host: UserRow, bookingId: string, forUpdate = false): Promise<BookingWithEventType> {
  const query = db
    .select({ booking: bookings, eventType: { id: eventTypes.id, title: eventTypes.title } })
    .from(bookings)
    .innerJoin(eventTypes, eq(eventTypes.id, bookings.eventTypeId))
    .where(and(eq(bookings.id, bookingId), hostedBy(host.id)))
    .limit(1);
  const [row] = forUpdate ? await query.for("update", { of: bookings }) : await query;
  if (!row) throw notFound("Booking");
  return row;
}

/** Cancel and reschedule apply to bookings that are neither cancelled nor already started. */
export function assertModifiable(booking: BookingRow, now: number): void {
  if (booking.status === "cancelled") {
    throw new AppError("booking_not_modifiable", "This booking is already cancelled", { status: booking.status });
  }
  if (booking.startTime.getTime() <= now) {
    throw new AppError("booking_not_modifiable", "This booking has already started or is in the past");
  }
}

/** A booking can move once it is more than a hold: a booking awaiting its payment is paid (or cancelled) first (decisions §20). */
export function assertMovable(booking: BookingRow, now: number): void {
  assertModifiable(booking, now);
  if (booking.status === "awaiting_payment") {
    throw new AppError("booking_not_modifiable", "This booking is waiting for its payment: it can be moved once it is paid", { status: booking.status });
  }
}

/** A series' occurrences in order of start (decisions §19): what its guest's .ics holds. */
export async function seriesOccurrenceRows(db: Db, seriesId: string) {
  return db
    .select({ id: bookings.id, sequence: bookings.sequence, startTime: bookings.startTime, endTime: bookings.endTime, status: bookings.status })
    .from(bookings)
    .where(eq(bookings.seriesId, seriesId))
    .orderBy(bookings.startTime, bookings.id);
}
