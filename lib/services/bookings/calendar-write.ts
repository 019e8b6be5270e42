import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { runStatements } from "@/db/client";
import { bookingCalendarEvents, calendarConnections, calendars, type CalendarConnectionRow } from "@/db/schema";
import { CalendarError, type CalendarClient, type CalendarEvent } from "@/lib/calendars";
import { readablePhone } from "@/lib/phone";
import { readableAnswer } from "@/lib/question-answers";
import { hostsBooking } from "@/lib/notifications/booking-facts";
import { loadBookingFacts, type BookingFacts } from "@/lib/services/bookings/facts";
import { bookingUid, siteUrl } from "@/lib/links";
import { awaitsMeetingLink } from "@/lib/meeting-location";
import { storeMeetingLink } from "@/lib/services/bookings/meeting-link";
import { connectionClient, recordConnectionFailure } from "@/lib/services/calendars/store";

// Writes a booking into the host's write-target calendar (decisions §9): made on
// booking, moved on reschedule, removed on cancel, from the outbox with the worker's retries.
// The job carries only the booking's id and brings the calendar to the booking's state as it is
// when the job runs, so jobs that run late, twice or out of order all end in the same place;
// the event's id is derived from the booking (a stable UID, Google's event id, Graph's
// transactionId), so a create retried after a crash makes no second event.

function eventOf(facts: BookingFacts): CalendarEvent {
  const { booking } = facts;
  const answers = facts.questions
    .filter((q) => Object.hasOwn(booking.customAnswers, q.id) && booking.customAnswers[q.id])
    .map((q) => `${q.label}: ${readableAnswer(q, booking.customAnswers[q.id]!, readablePhone).join(", ")}`);
  // A team booking says whose team it is and, for a collective one, who else attends.
  const team = facts.team ? [`Team: ${facts.team.name}${facts.hosts.length > 1 ? ` (hosts: ${facts.hosts.map((h) => h.fullName).join(", ")})` : ""}`] : [];
  return {
    uid: bookingUid(booking.id),
    title: `${facts.title} with ${booking.guestName}`,
    // An erased guest has no address (decisions §16): the event then names no one to invite
    // (Google refuses an attendee without one; CalDAV would store `mailto:`).
    description: [`Booked by ${booking.guestName}${booking.guestEmail ? ` <${booking.guestEmail}>` : ""} through ${siteUrl("")}`, ...team, ...answers].join("\n"),
    // A `video` booking's own host's calendar makes its meeting (decisions §17); until the link
    // is known the event names no place of its own (the meeting is its place).
    location: awaitsMeetingLink(booking.location) ? "" : booking.location,
    wantsMeeting: awaitsMeetingLink(booking.location) && facts.host.userId === booking.hostId,
    start: booking.startTime.getTime(),
    end: booking.endTime.getTime(),
    timeZone: facts.host.timezone,
    attendees: booking.guestEmail ? [{ name: booking.guestName, email: booking.guestEmail }] : [],
  };
}

/** The booking's state as far as its calendar event is concerned: a later job sees a change in it. */
const versionOf = (facts: BookingFacts | undefined) =>
  facts
    ? `${facts.booking.status}:${facts.booking.startTime.getTime()}:${facts.booking.endTime.getTime()}:${facts.booking.sequence}:${facts.hosts.map((h) => h.userId).join(",")}`
    : "gone";

async function connectionOfCalendar(db: Db, calendarId: string) {
  const [row] = await db
    .select({ calendar: calendars, connection: calendarConnections })
    .from(calendars)
    .innerJoin(calendarConnections, eq(calendarConnections.id, calendars.connectionId))
    .where(eq(calendars.id, calendarId))
    .limit(1);
  return row;
}

/** Runs provider calls for one connection; a refused grant or password marks it reauth_required (the sync's rule). */
async function using<T>(db: Db, connection: CalendarConnectionRow, work: (client: CalendarClient) => Promise<T>): Promise<T> {
  try {
    return await work(connectionClient(db, connection));
  } catch (error) {
    if (error instanceof CalendarError && error.kind === "auth") await recordConnectionFailure(db, connection.id, error);
    throw error;
  }
}

/** One pass: makes the host's calendar match `facts` (no event once the booking is cancelled or no longer theirs). */
async function reconcile(db: Db, bookingId: string, hostId: string, facts: BookingFacts | undefined): Promise<void> {
  const ours = and(eq(bookingCalendarEvents.bookingId, bookingId), eq(bookingCalendarEvents.hostId, hostId));
  const [written] = await db.select().from(bookingCalendarEvents).where(ours).limit(1);
  const wanted = facts !== undefined && facts.booking.status !== "cancelled" && hostsBooking(facts, hostId);

  if (written) {
    const where = await connectionOfCalendar(db, written.calendarId);
    if (!where) return; // the calendar was disconnected: nothing of ours is there to change
    const calendarId = where.calendar.externalId;
    if (!wanted) {
      await using(db, where.connection, (client) => client.deleteEvent(calendarId, written.externalEventId));
      await db.delete(bookingCalendarEvents).where(ours);
      return;
    }
    const event = eventOf(facts);
    const eventId = await using(db, where.connection, async (client) => {
      try {
        await client.updateEvent(calendarId, written.externalEventId, event);
        return written.externalEventId;
      } catch (error) {
        // The host deleted the event in their calendar: the booking still stands, so it is written again.
        if (!(error instanceof CalendarError && error.kind === "not_found")) throw error;
        const created = await client.createEvent(calendarId, event);
        if (created.meetingUrl && event.wantsMeeting) await storeMeetingLink(db, bookingId, created.meetingUrl, Date.now(), "provider");
        return created.eventId;
      }
    });
    await db.update(bookingCalendarEvents).set({ externalEventId: eventId, updatedAt: new Date() }).where(ours);
    return;
  }

  if (!wanted) return;
  const [target] = await db
    .select({ calendar: calendars, connection: calendarConnections })
    .from(calendars)
    .innerJoin(calendarConnections, eq(calendarConnections.id, calendars.connectionId))
    .where(and(eq(calendars.userId, hostId), eq(calendars.writeTarget, true)))
    .limit(1);
  if (!target) return; // no write target: bookings stay in this service only
  const event = eventOf(facts);
  const { eventId, meetingUrl } = await using(db, target.connection, (client) => client.createEvent(target.calendar.externalId, event));
  // Stored before the event's row: a booking whose event is written without a link has none coming.
  if (meetingUrl && event.wantsMeeting) await storeMeetingLink(db, bookingId, meetingUrl, Date.now(), "provider");
  await db
    .insert(bookingCalendarEvents)
    .values({ bookingId, hostId, calendarId: target.calendar.id, externalEventId: eventId, uid: event.uid })
    .onConflictDoUpdate({ target: [bookingCalendarEvents.bookingId, bookingCalendarEvents.hostId], set: { calendarId: target.calendar.id, externalEventId: eventId, updatedAt: new Date() } });
}

// The hosts a calendar write of a booking has work for: one the booking has an event of in a
// calendar (written before; to move or remove), or one with a calendar to write to. Most hosts
// have neither, and then the write has nothing to bring in line, whatever the booking's state.
const CALENDAR_WORK_SQL = `
select h.id from json_array_elements_text($2::text::json) as h(id)
where exists (select 1 from booking_calendar_events e where e.booking_id = $1::text and e.host_id = h.id)
  or exists (select 1 from calendars c where c.user_id = h.id and c.write_target)`;

/**
 * Of `hostIds`, the hosts whose calendar a write of the booking may change (one prepared
 * statement for all): the booking's fan-out makes calendar.write jobs for these only, and the
 * job asks again when it runs. A write target chosen after the fan-out counts from the next change.
 */
export async function hostsWithCalendarWork(db: Db, bookingId: string, hostIds: string[]): Promise<Set<string>> {
  if (hostIds.length === 0) return new Set();
  const [rows] = await runStatements(db)<[{ id: string }[]]>([{ text: CALENDAR_WORK_SQL, params: [bookingId, JSON.stringify(hostIds)] }]);
  return new Set(rows.map((r) => r.id));
}

export type CalendarWriteResult = { status: "done" } | { status: "retry"; error: string } | { status: "failed"; error: string };

/**
 * Brings the host's calendar in line with the booking as it is now (outbox kind calendar.write):
 * done, worth another try later (the provider was unavailable, the booking kept changing), or
 * failed for good (the grant was refused, the provider refused the request).
 */
export async function writeBookingToCalendar(db: Db, job: { bookingId: string; hostId: string }): Promise<CalendarWriteResult> {
  const { bookingId, hostId } = job;
  // Most hosts write to no calendar: then there is nothing to bring in line, whatever the
  // booking's state, unless an event was written for it before (the host disconnected since).
  if (!(await hostsWithCalendarWork(db, bookingId, [hostId])).has(hostId)) return { status: "done" };
  try {
    // A change that lands while we write (a reschedule during the create) is written too:
    // each pass ends by checking that what it wrote is still the booking's state.
    for (let pass = 0; pass < 3; pass += 1) {
      const facts = await loadBookingFacts(db, bookingId, hostId);
      await reconcile(db, bookingId, hostId, facts);
      if (versionOf(await loadBookingFacts(db, bookingId, hostId)) === versionOf(facts)) return { status: "done" };
    }
    return { status: "retry", error: "The booking kept changing while its calendar event was written" };
  } catch (error) {
    if (!(error instanceof CalendarError)) throw error;
    // Retrying cannot help until the host connects again (auth) or ever (a refused request).
    if (error.kind === "auth" || error.kind === "rejected" || error.kind === "not_found") return { status: "failed", error: `calendar ${error.kind}: ${error.message}` };
    return { status: "retry", error: `calendar ${error.kind}: ${error.message}` };
  }
}
