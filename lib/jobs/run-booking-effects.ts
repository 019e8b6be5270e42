import "server-only";
import { BookingEventPayload, type BookingEvent } from "@/lib/outbox/booking-events";
import { bookingEventEffects } from "@/lib/services/bookings/effects";
import type { JobHandler } from "./types";

/**
 * Fan-out: one booking event becomes the jobs it sets off (webhook deliveries, emails, calendar
 * writes, reminders, expiry warnings), or waits for a `video` booking's meeting link. What and
 * why is decided by lib/services/bookings/effects.ts; this adapter runs the plan.
 */
export function bookingEventFanOut(kind: BookingEvent): JobHandler {
  return {
    kind,
    async run({ db, job, now }) {
      const event = BookingEventPayload.parse(job.payload);
      return bookingEventEffects(db, event, job.id, now);
    },
  };
}
