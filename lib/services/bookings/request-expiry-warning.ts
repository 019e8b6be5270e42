import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { bookings } from "@/db/schema";
import type { BookingFacts } from "@/lib/notifications/booking-facts";
import { hostsBooking } from "@/lib/notifications/booking-facts";
import { dropPendingBookingJobs } from "@/lib/outbox/drop";
import type { NewJob } from "@/lib/outbox/enqueue";
import { REQUEST_EXPIRY_EMAIL } from "@/lib/outbox/kinds";
import type { RequestExpiryJob } from "@/lib/outbox/payloads";
import { loadBookingFacts } from "./facts";

// A request (a pending booking, decisions §16) expires unanswered at its start. A few hours
// before, each of its hosts is warned once by email, with the link to confirm or decline it.
// Like reminders, the warning is a job made by the fan-out of the event that gave the request its
// time (created, or a guest's reschedule of it), keyed by booking × SEQUENCE × host so a fan-out
// run twice makes it once; a confirm or cancel drops it, a reschedule drops the older time's. A
// warning that slips past a drop checks the booking again when it runs and sends nothing.

const HOUR = 3_600_000;
/** The warning comes this long before the expiry when the request leaves time for it. */
export const WARN_BEFORE_MS = 3 * HOUR;
/** A request made with less time than this left is warned halfway through the time it has. */
const ROOM_FOR_FULL_WARNING_MS = 6 * HOUR;
/** With less than this left when it is made, a request gets no warning. */
const TOO_CLOSE_MS = HOUR;

/**
 * When a request made at `madeAt` that expires at `expiresAt` warns its hosts (epoch ms), or
 * undefined for none. Three hours before is when most hosts can still act on it in a working
 * day, yet late enough that the request email has had its chance first. A request made with
 * less than six hours left is warned halfway through what is left (made 4 h ahead: warned 2 h
 * ahead), so the warning never follows the request email within minutes. With less than an hour
 * left there is no warning: the request email has just said all of it.
 */
export function expiryWarningAt(madeAt: number, expiresAt: number): number | undefined {
  const left = expiresAt - madeAt;
  if (left < TOO_CLOSE_MS) return undefined;
  return left >= ROOM_FOR_FULL_WARNING_MS ? expiresAt - WARN_BEFORE_MS : expiresAt - Math.round(left / 2);
}

/** The events that give a request its (new) time. */
const GIVES_A_TIME: ReadonlySet<string> = new Set(["booking.created", "booking.rescheduled"]);
/** The events after which a request's warnings may change: its time, or its answer (a no-show mark changes nothing). */
const CHANGES_A_REQUEST: ReadonlySet<string> = new Set([...GIVES_A_TIME, "booking.confirmed", "booking.cancelled"]);

type RequestEventRef = { event: string; bookingId: string; sequence: number; hostIds: string[] };

/**
 * What a booking event does to its request's expiry warnings: drops the ones it made stale (the
 * request was answered, cancelled or moved) and returns the ones to add (the fan-out adds them
 * with its other jobs, in one transaction).
 */
export async function expiryWarningsAfter(db: Db, event: RequestEventRef, now: number): Promise<NewJob[]> {
  if (!CHANGES_A_REQUEST.has(event.event)) return [];
  const [booking] = await db
    .select({ id: bookings.id, status: bookings.status, sequence: bookings.sequence, startTime: bookings.startTime })
    .from(bookings)
    .where(eq(bookings.id, event.bookingId));
  if (!booking) return [];
  if (booking.status !== "pending") {
    await dropPendingBookingJobs(db, { kinds: [REQUEST_EXPIRY_EMAIL], bookingId: booking.id });
    return [];
  }
  // An event a newer change has overtaken leaves the planning to that change's own event.
  if (!GIVES_A_TIME.has(event.event) || booking.sequence !== event.sequence) return [];
  if (booking.sequence > 0) await dropPendingBookingJobs(db, { kinds: [REQUEST_EXPIRY_EMAIL], bookingId: booking.id, belowSequence: booking.sequence });
  const start = booking.startTime.getTime();
  const at = expiryWarningAt(now, start);
  if (at === undefined) return [];
  const startTime = booking.startTime.toISOString();
  return event.hostIds.map((hostId) => ({
    kind: REQUEST_EXPIRY_EMAIL,
    runAfter: new Date(at),
    dedupeKey: `request-expiry:${booking.id}:${booking.sequence}:${hostId}`,
    payload: { bookingId: booking.id, sequence: booking.sequence, startTime, hostId } satisfies RequestExpiryJob,
  }));
}

/**
 * The booking's facts, for the host, if the warning is still to go out, else undefined: the
 * booking is still a request (not confirmed, declined or expired), still starts when the warning
 * was made for and has not started, the host still hosts it, and its guest was not erased.
 */
export async function expiryWarningToSend(db: Db, job: RequestExpiryJob, now: number): Promise<BookingFacts | undefined> {
  const facts = await loadBookingFacts(db, job.bookingId, job.hostId);
  if (!facts) return undefined;
  const { booking } = facts;
  if (booking.status !== "pending" || booking.startTime.getTime() !== Date.parse(job.startTime) || booking.startTime.getTime() <= now) return undefined;
  if (!hostsBooking(facts, job.hostId) || booking.guestEmail === "") return undefined;
  return facts;
}
