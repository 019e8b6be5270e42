import "server-only";
import { newId } from "@/lib/ids";
import { awaitsMeetingLink } from "@/lib/meeting-location";
import { MEETING_LINK_RECHECK_MS, meetingLinkState } from "@/lib/services/bookings/meeting-link";
import { remindersAfter } from "@/lib/services/bookings/reminders";
import { expiryWarningsAfter } from "@/lib/services/bookings/request-expiry-warning";
import { webhooksWanting } from "@/lib/services/webhooks/delivery";
import { hostsWithCalendarWork } from "@/lib/services/calendars/write-booking";
import { BookingEventPayload, hostsOfEvent, type BookingEvent } from "@/lib/outbox/booking-events";
import { webhookBody } from "@/lib/webhooks/body";
import { BOOKING_EMAIL, CALENDAR_WRITE, WEBHOOK_DELIVERY } from "@/lib/outbox/kinds";
import type { CalendarWriteJob } from "@/lib/outbox/payloads";
import type { BookingEmailJob } from "@/lib/outbox/payloads";
import type { JobHandler, NewJob } from "./types";
import type { WebhookDeliveryJob } from "@/lib/outbox/payloads";

/**
 * Fan-out: one booking event becomes one delivery job per active webhook that wants the event,
 * of every host it concerns (a team booking's hosts, and the host a reassignment took it from),
 * one email to the guest and one to each of those hosts, and one job per host that brings that
 * host's calendar to the booking's state (none for a host who writes to no calendar and has no
 * event of the booking; it removes the event of a host no longer on the booking). Each runs,
 * retries and fails on its own, so an endpoint that is down never delays or repeats anything
 * sent elsewhere. The jobs are added by the statement that settles this one, under keys unique
 * per event × target: a fan-out that runs twice (a lost lease) adds nothing the second time.
 * Last, the booking's reminders: the event's new time gets its own (due before the start), a
 * cancel drops them; and a request's expiry warnings to its hosts, likewise.
 */
/**
 * What each event sends besides its webhooks: a no-show mark is the host's bookkeeping, told to
 * their endpoints only (the guest gets no email about it, the calendars do not change).
 */
const TOLD: Record<BookingEvent, { emails: boolean; calendars: boolean }> = {
  "booking.created": { emails: true, calendars: true },
  "booking.confirmed": { emails: true, calendars: true },
  "booking.rescheduled": { emails: true, calendars: true },
  "booking.cancelled": { emails: true, calendars: true },
  "booking.no_show_updated": { emails: false, calendars: false },
};

/** The events whose messages wait for a `video` booking's meeting link (decisions §17). */
const SHOWS_LOCATION: ReadonlySet<BookingEvent> = new Set(["booking.created", "booking.confirmed", "booking.rescheduled"]);

/** The location the event's data carries, when it carries one. */
function locationOf(data: unknown): string | undefined {
  const location = (data as { location?: unknown } | null)?.location;
  return typeof location === "string" ? location : undefined;
}

export function bookingEventFanOut(kind: BookingEvent): JobHandler {
  return {
    kind,
    async run({ db, job, now }) {
      const event = BookingEventPayload.parse(job.payload);
      const hostIds = hostsOfEvent(event);
      const told = TOLD[event.event];
      // A host with no calendar to write to and no event of the booking in one gets no job: it
      // would find nothing to do (lib/services/calendars/write-booking.ts).
      const calendarHosts = told.calendars ? await hostsWithCalendarWork(db, event.bookingId, hostIds) : new Set<string>();
      const calendar: NewJob[] = hostIds.filter((hostId) => calendarHosts.has(hostId)).map((hostId) => ({
        kind: CALENDAR_WRITE,
        dedupeKey: hostId === event.hostId ? `calendar:${job.id}` : `calendar:${job.id}:${hostId}`,
        payload: { bookingId: event.bookingId, hostId } satisfies CalendarWriteJob,
      }));
      // A `video` booking whose link the host's calendar is making: the calendar writes go out at
      // once, everything the guest and the host read waits for the link (lib/services/bookings/
      // meeting-link.ts says how long), then shows it. The writes' keys make them once however
      // often this runs.
      let data = event.data;
      const location = locationOf(data);
      if (location !== undefined && awaitsMeetingLink(location) && SHOWS_LOCATION.has(event.event)) {
        const state = await meetingLinkState(db, event.bookingId, Date.parse(event.occurredAt), now);
        if (state.wait) return { status: "defer", until: now + MEETING_LINK_RECHECK_MS, enqueue: calendar };
        data = { ...(data as object), location: state.location };
      }
      const shown = { ...event, data };
      const body = webhookBody(event.event, event.occurredAt, data);
      const targets = await webhooksWanting(db, hostIds, event.event);
      const deliveries: NewJob[] = targets.map((webhookId) => ({
        kind: WEBHOOK_DELIVERY,
        dedupeKey: `webhook:${job.id}:${webhookId}`,
        payload: { webhookId, bookingId: event.bookingId, messageId: newId("msg"), eventType: event.event, body } satisfies WebhookDeliveryJob,
      }));
      const emails: NewJob[] = !told.emails ? [] : [
        { kind: BOOKING_EMAIL, dedupeKey: `email:${job.id}:guest`, payload: { reader: "guest", bookingId: event.bookingId, eventJobId: job.id, event: shown } satisfies BookingEmailJob },
        // The booking's own host keeps the key it always had; its co-hosts get one each.
        ...hostIds.map((hostId) => ({
          kind: BOOKING_EMAIL,
          dedupeKey: hostId === event.hostId ? `email:${job.id}:host` : `email:${job.id}:host:${hostId}`,
          payload: { reader: "host", hostId, bookingId: event.bookingId, eventJobId: job.id, event: shown } satisfies BookingEmailJob,
        })),
      ];
      const reminders = await remindersAfter(db, event, now);
      const warnings = await expiryWarningsAfter(db, { ...event, hostIds: event.hostIds ?? [event.hostId] }, now);
      return { status: "done", enqueue: [...deliveries, ...emails, ...calendar, ...reminders, ...warnings] };
    },
  };
}
