import type { Tx } from "@/db";
import { outboxJobs } from "@/db/schema";

export type BookingEvent = "booking.created" | "booking.cancelled" | "booking.rescheduled";

/**
 * Records a booking event in the outbox, inside the transaction that made the change: the event
 * exists exactly when the change does. Delivery (webhooks, calendar writes) reads the outbox.
 */
export async function enqueueBookingEvent(tx: Tx, event: BookingEvent, hostId: string, now: number, data: unknown): Promise<void> {
  await tx.insert(outboxJobs).values({
    kind: event,
    payload: { event, hostId, occurredAt: new Date(now).toISOString(), data },
    runAfter: new Date(now),
  });
}
