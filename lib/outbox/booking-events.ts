import "server-only";
import { z } from "zod";
import type { Tx } from "@/db";
import type { BookingRow } from "@/db/schema";
import { enqueueJobs } from "@/lib/outbox/enqueue";
import { bookingEvents, type BookingEvent } from "@/lib/schemas/webhook";
import { isoUtc } from "@/lib/time/instants";

export { bookingEvents, type BookingEvent };

/**
 * A booking event as the outbox keeps it. `data` is what webhooks send (docs/webhooks-and-email.md); the
 * rest is for the service's own messages and never leaves it: the booking's SEQUENCE after the
 * change (its calendar invitation). The guest's token is not here: the emails read it, sealed,
 * from booking_guest_tokens (lib/services/bookings/guest-token.ts).
 */
export const BookingEventPayload = z.object({
  event: z.enum(bookingEvents),
  hostId: z.string(),
  /**
   * Every host of the booking after the change (decisions §15): each gets the webhooks, the email
   * and the calendar write. Rows written before teams name only hostId.
   */
  hostIds: z.array(z.string()).optional(),
  /** The hosts a reschedule took the booking from (a round-robin reassignment): told, and their calendars cleared. */
  formerHostIds: z.array(z.string()).optional(),
  bookingId: z.string(),
  occurredAt: z.string(),
  sequence: z.number().int(),
  data: z.unknown(),
  /**
   * Occurrences of a series cancelled together (scope `following`, decisions §19) are told in one
   * message: the first one's event lists every occurrence the change cancelled (its own first),
   * each as it is after it; the others name the booking whose event tells of them, and send no
   * email of their own (their webhooks and calendar writes stay).
   */
  tellsOf: z.array(z.object({ bookingId: z.string(), startTime: z.string(), endTime: z.string(), sequence: z.number().int() })).optional(),
  toldWith: z.string().optional(),
});
export type BookingEventPayload = z.infer<typeof BookingEventPayload>;

/** Who a booking event concerns: the booking's hosts now, and any it was taken from. */
export type EventHosts = { hostIds: string[]; formerHostIds?: string[] };

/** Every host an event concerns: its hosts and the ones it left (payloads before teams: hostId). */
export function hostsOfEvent(event: BookingEventPayload): string[] {
  return [...new Set([...(event.hostIds ?? [event.hostId]), ...(event.formerHostIds ?? [])])];
}

/** The outbox row's payload of a booking event. */
export function bookingEventPayload(event: BookingEvent, booking: BookingRow, hosts: EventHosts, now: number, data: unknown, told: ToldTogether = {}): BookingEventPayload {
  return {
    event,
    hostId: booking.hostId,
    hostIds: hosts.hostIds,
    ...(hosts.formerHostIds?.length ? { formerHostIds: hosts.formerHostIds } : {}),
    bookingId: booking.id,
    occurredAt: isoUtc(new Date(now)),
    sequence: booking.sequence,
    data,
    ...told,
  };
}

/** How an event of several occurrences changed together is told (BookingEventPayload's `tellsOf`, `toldWith`). */
export type ToldTogether = Pick<BookingEventPayload, "tellsOf" | "toldWith">;

/**
 * Records a booking event in the outbox, inside the transaction that made the change: the event
 * exists exactly when the change does. lib/jobs turns it into webhook deliveries and emails.
 * (A new booking writes its event in the statement that inserts it: booking-commit.ts.)
 */
export async function enqueueBookingEvent(tx: Tx, event: BookingEvent, booking: BookingRow, hosts: EventHosts, now: number, data: unknown, told: ToldTogether = {}): Promise<void> {
  await enqueueJobs(tx, [{ kind: event, payload: bookingEventPayload(event, booking, hosts, now, data, told) }], now);
}
