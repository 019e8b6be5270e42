import "server-only";
import { newId } from "@/lib/ids";
import { webhooksWanting } from "@/lib/services/webhooks/delivery";
import { BookingEventPayload, type BookingEvent } from "@/lib/outbox/booking-events";
import { webhookBody } from "@/lib/webhooks/body";
import { BOOKING_EMAIL, CALENDAR_WRITE, WEBHOOK_DELIVERY } from "@/lib/outbox/kinds";
import type { CalendarWriteJob } from "@/lib/outbox/payloads";
import type { BookingEmailJob } from "@/lib/outbox/payloads";
import type { JobHandler, NewJob } from "./types";
import type { WebhookDeliveryJob } from "@/lib/outbox/payloads";

/**
 * Fan-out: one booking event becomes one delivery job per active webhook of the host that wants
 * the event, one email job per reader (guest, host), and one job that brings the host's
 * calendar to the booking's state (it does nothing when the host writes to no calendar). Each runs, retries and fails on its
 * own, so an endpoint that is down never delays or repeats anything sent elsewhere. The jobs are
 * added in the transaction that settles this one, under keys unique per event × target: a
 * fan-out that runs twice (a lost lease) adds nothing the second time.
 */
export function bookingEventFanOut(kind: BookingEvent): JobHandler {
  return {
    kind,
    async run({ db, job }) {
      const event = BookingEventPayload.parse(job.payload);
      const targets = await webhooksWanting(db, event.hostId, event.event);
      const body = webhookBody(event.event, event.occurredAt, event.data);
      const deliveries: NewJob[] = targets.map((webhookId) => ({
        kind: WEBHOOK_DELIVERY,
        dedupeKey: `webhook:${job.id}:${webhookId}`,
        payload: { webhookId, messageId: newId("msg"), eventType: event.event, body } satisfies WebhookDeliveryJob,
      }));
      const emails: NewJob[] = (["guest", "host"] as const).map((reader) => ({
        kind: BOOKING_EMAIL,
        dedupeKey: `email:${job.id}:${reader}`,
        payload: { reader, eventJobId: job.id, event } satisfies BookingEmailJob,
      }));
      const calendar: NewJob = {
        kind: CALENDAR_WRITE,
        dedupeKey: `calendar:${job.id}`,
        payload: { bookingId: event.bookingId, hostId: event.hostId } satisfies CalendarWriteJob,
      };
      return { status: "done", enqueue: [...deliveries, ...emails, calendar] };
    },
  };
}
