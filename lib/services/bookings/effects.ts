import "server-only";
import type { Db } from "@/db";
import { newId } from "@/lib/ids";
import { awaitsMeetingLink } from "@/lib/meeting-location";
import { hostsOfEvent, type BookingEvent, type BookingEventPayload } from "@/lib/outbox/booking-events";
import type { NewJob } from "@/lib/outbox/enqueue";
import { BOOKING_EMAIL, CALENDAR_WRITE, WEBHOOK_DELIVERY } from "@/lib/outbox/kinds";
import type { BookingEmailJob, CalendarWriteJob, WebhookDeliveryJob } from "@/lib/outbox/payloads";
import { hostsWithCalendarWork } from "./calendar-write";
import { webhooksWanting } from "@/lib/services/webhooks/delivery";
import { webhookBody } from "@/lib/webhooks/body";
import { MEETING_LINK_RECHECK_MS, meetingLinkState, type MeetingLinkState } from "./meeting-link";
import { remindersAfter } from "./reminders";
import { expiryWarningsAfter } from "./request-expiry-warning";

// What a booking event sets off (the outbox's fan-out of it, run by lib/jobs/run-booking-effects.ts):
// one delivery job per active webhook that wants the event, of every host it concerns (a team
// booking's hosts, and the host a reassignment took it from), one email to the guest and one to
// each of those hosts, and one job per host that brings that host's calendar to the booking's
// state (none for a host who writes to no calendar and has no event of the booking; it removes
// the event of a host no longer on the booking). Each runs, retries and fails on its own, so an
// endpoint that is down never delays or repeats anything sent elsewhere. The jobs are added by
// the statement that settles the event's job, under keys unique per event × target: a fan-out
// that runs twice (a lost lease) adds nothing the second time. Last, the booking's reminders:
// the event's new time gets its own (due before the start), a cancel drops them; and a
// request's expiry warnings to its hosts, likewise. A series' occurrences are emailed together:
// its first occurrence's booking.created sends the emails that list every date, and occurrences
// cancelled together are told by the first one's (toldElsewhere).
//
// Two halves: loadEffectFacts reads what the decision needs (and drops the reminders and
// warnings the event made stale), planEffects decides, pure, what to enqueue.

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
  // Money (decisions §20): the emails of the booking.created or booking.cancelled written beside
  // it say what was paid or given back; these tell the host's endpoints of the money itself.
  "booking.paid": { emails: false, calendars: false },
  "booking.refunded": { emails: false, calendars: false },
};

/** The events whose messages wait for a `video` booking's meeting link (decisions §17). */
const SHOWS_LOCATION: ReadonlySet<BookingEvent> = new Set(["booking.created", "booking.confirmed", "booking.rescheduled"]);

/** The first occurrence of the series the event's data carries (a booking.created of a series), when it carries one. */
function firstOfSeries(data: unknown): string | undefined {
  const series = (data as { series?: { occurrences?: { id?: unknown }[] } | null } | null)?.series;
  const first = series?.occurrences?.[0]?.id;
  return typeof first === "string" ? first : undefined;
}

/**
 * Whether another event's messages tell of this one (decisions §19): a series is confirmed by one
 * email listing every date, sent on its first occurrence's booking.created; occurrences cancelled
 * together (`following`) by one listing the cancelled dates, sent on the first of them. The others
 * still set off their webhooks, calendar writes and reminders.
 */
function toldElsewhere(event: BookingEventPayload): boolean {
  if (event.toldWith !== undefined) return true;
  if (event.event !== "booking.created") return false;
  const first = firstOfSeries(event.data);
  return first !== undefined && first !== event.bookingId;
}

/** The location the event's data carries, when it carries one. */
function locationOf(data: unknown): string | undefined {
  const location = (data as { location?: unknown } | null)?.location;
  return typeof location === "string" ? location : undefined;
}

/** Whether the event's messages show a location that still awaits its meeting link. */
function showsAwaitedLink(event: BookingEventPayload): boolean {
  const location = locationOf(event.data);
  return location !== undefined && awaitsMeetingLink(location) && SHOWS_LOCATION.has(event.event);
}

/** What planning a booking event's effects reads. */
export type EffectFacts = {
  /** The event's hosts with calendar work (a write target, or an event of the booking); none read for an event that changes no calendar. */
  calendarHosts: ReadonlySet<string>;
  /** Read only when the event's messages show a location still awaiting its link: wait for it, or show this location. */
  meetingLink?: MeetingLinkState;
  /** The active webhooks of the event's hosts that want it (the event, and the booking's event type), each with the message id chosen for it (the webhook-id header). */
  webhooks: { webhookId: string; messageId: string }[];
  /** The booking's reminders and its request's expiry warnings that the event makes due. */
  reminders: NewJob[];
  warnings: NewJob[];
};

/** What the fan-out does: add these jobs and finish, or add these now and run again at `until` (epoch ms). */
export type EffectPlan = { status: "done"; enqueue: NewJob[] } | { status: "defer"; until: number; enqueue: NewJob[] };

/**
 * Reads the facts, in this order: the hosts' calendar work, the meeting link (past its wait a
 * template's link is stored for the booking), then, unless the messages wait for the link, the
 * webhooks, the reminders and the expiry warnings (those two drop the ones the event made stale).
 */
export async function loadEffectFacts(db: Db, event: BookingEventPayload, now: number): Promise<EffectFacts> {
  const hostIds = hostsOfEvent(event);
  // A host with no calendar to write to and no event of the booking in one gets no job: it
  // would find nothing to do (lib/services/bookings/calendar-write.ts).
  const calendarHosts = TOLD[event.event].calendars ? await hostsWithCalendarWork(db, event.bookingId, hostIds) : new Set<string>();
  const meetingLink = showsAwaitedLink(event) ? await meetingLinkState(db, event.bookingId, Date.parse(event.occurredAt), now) : undefined;
  if (meetingLink?.wait) return { calendarHosts, meetingLink, webhooks: [], reminders: [], warnings: [] };
  const webhooks = (await webhooksWanting(db, hostIds, event.event, event.bookingId)).map((webhookId) => ({ webhookId, messageId: newId("msg") }));
  const reminders = await remindersAfter(db, event, now);
  const warnings = await expiryWarningsAfter(db, { ...event, hostIds: event.hostIds ?? [event.hostId] }, now);
  return { calendarHosts, meetingLink, webhooks, reminders, warnings };
}

/** One calendar write per host with calendar work; the booking's own host keeps the key it always had. */
function calendarWrites(event: BookingEventPayload, eventJobId: number, hostIds: string[], calendarHosts: ReadonlySet<string>): NewJob[] {
  return hostIds.filter((hostId) => calendarHosts.has(hostId)).map((hostId) => ({
    kind: CALENDAR_WRITE,
    dedupeKey: hostId === event.hostId ? `calendar:${eventJobId}` : `calendar:${eventJobId}:${hostId}`,
    payload: { bookingId: event.bookingId, hostId } satisfies CalendarWriteJob,
  }));
}

/** The email to the guest and one to each host; the booking's own host keeps the key it always had, its co-hosts get one each. */
function emails(eventJobId: number, hostIds: string[], shown: BookingEventPayload): NewJob[] {
  const { bookingId } = shown;
  return [
    { kind: BOOKING_EMAIL, dedupeKey: `email:${eventJobId}:guest`, payload: { reader: "guest", bookingId, eventJobId, event: shown } satisfies BookingEmailJob },
    ...hostIds.map((hostId) => ({
      kind: BOOKING_EMAIL,
      dedupeKey: hostId === shown.hostId ? `email:${eventJobId}:host` : `email:${eventJobId}:host:${hostId}`,
      payload: { reader: "host", hostId, bookingId, eventJobId, event: shown } satisfies BookingEmailJob,
    })),
  ];
}

/**
 * The jobs a booking event sets off (pure). A `video` booking whose link the host's calendar is
 * making: the calendar writes go out at once, everything the guest and the host read waits for
 * the link (meeting-link.ts says how long), then shows it. The writes' keys make them once
 * however often the fan-out runs.
 */
export function planEffects(event: BookingEventPayload, eventJobId: number, facts: EffectFacts, now: number): EffectPlan {
  const hostIds = hostsOfEvent(event);
  const calendar = calendarWrites(event, eventJobId, hostIds, facts.calendarHosts);
  if (facts.meetingLink?.wait) return { status: "defer", until: now + MEETING_LINK_RECHECK_MS, enqueue: calendar };
  const data = facts.meetingLink ? { ...(event.data as object), location: facts.meetingLink.location } : event.data;
  const body = webhookBody(event.event, event.occurredAt, data);
  const deliveries: NewJob[] = facts.webhooks.map(({ webhookId, messageId }) => ({
    kind: WEBHOOK_DELIVERY,
    dedupeKey: `webhook:${eventJobId}:${webhookId}`,
    payload: { webhookId, bookingId: event.bookingId, messageId, eventType: event.event, body } satisfies WebhookDeliveryJob,
  }));
  const told = TOLD[event.event].emails && !toldElsewhere(event) ? emails(eventJobId, hostIds, { ...event, data }) : [];
  return { status: "done", enqueue: [...deliveries, ...told, ...calendar, ...facts.reminders, ...facts.warnings] };
}

/** A booking event's effects as they stand now: the facts read, the plan made. */
export async function bookingEventEffects(db: Db, event: BookingEventPayload, eventJobId: number, now: number): Promise<EffectPlan> {
  return planEffects(event, eventJobId, await loadEffectFacts(db, event, now), now);
}
