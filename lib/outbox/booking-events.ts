import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "@/db";
import { outboxJobs, type BookingRow } from "@/db/schema";
import { enqueueJobs } from "@/lib/outbox/enqueue";
import { bookingEvents, type BookingEvent } from "@/lib/schemas/webhook";
import { open, seal } from "@/lib/secret-box";
import { isoUtc } from "@/lib/time";

export { bookingEvents, type BookingEvent };

/** The guest's token inside an outbox row is sealed for this use only. */
export const GUEST_TOKEN_PURPOSE = "outbox:guest-token";

/**
 * A booking event as the outbox keeps it. `data` is what webhooks send (the spec's payload); the
 * rest is for the service's own messages and never leaves it: the booking's SEQUENCE after the
 * change (its calendar invitation), and on booking.created the guest's token, sealed, so the
 * guest's emails can carry their cancel link although the booking keeps only its hash.
 */
export const BookingEventPayload = z.object({
  event: z.enum(bookingEvents),
  hostId: z.string(),
  bookingId: z.string(),
  occurredAt: z.string(),
  sequence: z.number().int(),
  data: z.unknown(),
  sealedGuestToken: z.string().optional(),
});
export type BookingEventPayload = z.infer<typeof BookingEventPayload>;

/** The outbox row's payload of a booking event (the guest's token, if given, sealed). */
export function bookingEventPayload(
  event: BookingEvent,
  booking: BookingRow,
  now: number,
  data: unknown,
  options: { guestToken?: string } = {},
): BookingEventPayload {
  return {
    event,
    hostId: booking.hostId,
    bookingId: booking.id,
    occurredAt: isoUtc(new Date(now)),
    sequence: booking.sequence,
    data,
    ...(options.guestToken ? { sealedGuestToken: seal(options.guestToken, GUEST_TOKEN_PURPOSE) } : {}),
  };
}

/**
 * Records a booking event in the outbox, inside the transaction that made the change: the event
 * exists exactly when the change does. lib/jobs turns it into webhook deliveries and emails.
 * (A new booking writes its event in the statement that inserts it: booking-commit.ts.)
 */
export async function enqueueBookingEvent(
  tx: Tx,
  event: BookingEvent,
  booking: BookingRow,
  now: number,
  data: unknown,
  options: { guestToken?: string } = {},
): Promise<void> {
  await enqueueJobs(tx, [{ kind: event, payload: bookingEventPayload(event, booking, now, data, options) }], now);
}

/**
 * The guest's token for the links in a message about this event: carried by booking.created,
 * and found on the booking's booking.created row for later events (the token is readable
 * nowhere else). Undefined when that row is gone or its seal no longer opens.
 */
export async function guestTokenOf(db: Db, event: BookingEventPayload): Promise<string | undefined> {
  let sealed = event.sealedGuestToken;
  if (sealed === undefined) {
    const [created] = await db
      .select({ payload: outboxJobs.payload })
      .from(outboxJobs)
      .where(and(eq(outboxJobs.kind, "booking.created"), sql`${outboxJobs.payload} ->> 'bookingId' = ${event.bookingId}`))
      .limit(1);
    sealed = BookingEventPayload.safeParse(created?.payload).data?.sealedGuestToken;
  }
  return sealed === undefined ? undefined : open(sealed, GUEST_TOKEN_PURPOSE);
}
