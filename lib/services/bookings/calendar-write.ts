import "server-only";
import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { runStatements } from "@/db/client";
import { bookingCalendarEvents, bookings, calendarConnections, calendars, type BookingRow, type CalendarConnectionRow } from "@/db/schema";
import { CalendarError, type CalendarClient, type CalendarEvent } from "@/lib/calendars";
import { readablePhone } from "@/lib/phone";
import { readableAnswer } from "@/lib/question-answers";
import { hostsBooking } from "@/lib/notifications/booking-facts";
import { loadBookingFacts, type BookingFacts } from "@/lib/services/bookings/facts";
import { bookingUid, seatUid, siteUrl } from "@/lib/links";
import { awaitsMeetingLink, isWebAddress } from "@/lib/meeting-location";
import { seatKeyOf } from "@/lib/services/host-time/load";
import { storeMeetingLink } from "@/lib/services/bookings/meeting-link";
import { connectionClient, recordConnectionFailure } from "@/lib/services/calendars/store";

// Writes a booking into the host's write-target calendar (decisions §9): made on
// booking, moved on reschedule, removed on cancel, from the outbox with the worker's retries.
// The job carries only the booking's id and brings the calendar to the booking's state as it is
// when the job runs, so jobs that run late, twice or out of order all end in the same place;
// the event's id is derived from the booking (a stable UID, Google's event id, Graph's
// transactionId), so a create retried after a crash makes no second event. A seat is written as
// its start's one event (below: "A seated start").

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
  // A hold waiting for its payment is no meeting yet (decisions §20): it is written once paid.
  const wanted = facts !== undefined && facts.booking.status !== "cancelled" && facts.booking.status !== "awaiting_payment" && hostsBooking(facts, hostId);

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

// A seated start (decisions §19) is ONE event in each host's calendar, not one per seat: its UID
// comes from the seat key (seatUid), its attendees are the start's seats not cancelled, and it is
// removed when the last of them is. Every job of any seat brings the whole start to its state as
// it is when the job runs, and reads the start again after writing: a job that wrote an older
// list of seats (late, retried, out of order) sees the change and writes again, and the providers
// create by UID, so two seats' jobs creating at once make one event.
//
// Storage: booking_calendar_events keeps a row per seat (booking, host), as for any booking, and
// every seat in the event has one, all naming the same event (its uid the start's, the same
// provider id); the event is found by (host, uid). No migration, and what reads those rows stays
// right unchanged: a seat's job finds its calendar work by its own row (hostsWithCalendarWork),
// a seat's meeting link waits for its row (meeting-link.ts), busy time leaves the event out by
// its uid or id (calendars/sync.ts, check-at-booking.ts), and a seat's row goes with it (cascade).
// A row is only ever inserted for a seat that has none (a moved seat's row is moved by its own
// job, after it has taken the seat out of its former start's event).

/** The seat key a seated start's UID names (seatUid read back); undefined for any other UID. */
export function seatKeyOfUid(uid: string): string | undefined {
  const found = /^seat-(.+)-(\d+)@[^@]*$/.exec(uid);
  return found ? seatKeyOf(found[1]!, Number(found[2])) : undefined;
}

/** The start's seats `hostId` hosts that are not cancelled (nor still waiting for their payment), in the order they were taken. */
function seatsOf(db: Db, seatKey: string, hostId: string): Promise<BookingRow[]> {
  return db
    .select()
    .from(bookings)
    .where(
      and(
        eq(bookings.seatKey, seatKey),
        notInArray(bookings.status, ["cancelled", "awaiting_payment"]),
        sql`exists (select 1 from booking_hosts bh where bh.booking_id = ${bookings.id} and bh.user_id = ${hostId})`,
      ),
    )
    .orderBy(bookings.createdAt, bookings.id);
}

/** The seated starts a job of the booking brings in line: the one it has a seat in now, after any whose event it is still in (it moved). Empty: not a seat. */
async function seatKeysOf(db: Db, bookingId: string, hostId: string): Promise<string[]> {
  const [[row], written] = await Promise.all([
    db.select({ seatKey: bookings.seatKey }).from(bookings).where(eq(bookings.id, bookingId)).limit(1),
    db.select({ uid: bookingCalendarEvents.uid }).from(bookingCalendarEvents).where(and(eq(bookingCalendarEvents.bookingId, bookingId), eq(bookingCalendarEvents.hostId, hostId))),
  ]);
  const former = written.map((w) => seatKeyOfUid(w.uid)).filter((k): k is string => k !== undefined && k !== row?.seatKey);
  return [...new Set([...former, ...(row?.seatKey ? [row.seatKey] : [])])];
}

/** What a job compares before and after its writes: the seats of each start, each at its SEQUENCE. */
async function seatsVersion(db: Db, seatKeys: string[], hostId: string): Promise<string> {
  const starts = await Promise.all(seatKeys.map((k) => seatsOf(db, k, hostId)));
  return starts.map((seats, k) => `${seatKeys[k]}=${seats.map((s) => `${s.id}:${s.sequence}`).join(",")}`).join("|");
}

/** The start's one event: the event type's title and the number of guests, every guest an attendee and a line of the description (with their answers). */
function seatEventOf(facts: BookingFacts, seats: BookingRow[], uid: string): CalendarEvent {
  const first = seats[0]!;
  const guests = seats.flatMap((seat) => {
    const answers = facts.questions
      .filter((q) => Object.hasOwn(seat.customAnswers, q.id) && seat.customAnswers[q.id])
      .map((q) => `  ${q.label}: ${readableAnswer(q, seat.customAnswers[q.id]!, readablePhone).join(", ")}`);
    return [`- ${seat.guestName}${seat.guestEmail ? ` <${seat.guestEmail}>` : ""}`, ...answers];
  });
  const team = facts.team ? [`Team: ${facts.team.name}${facts.hosts.length > 1 ? ` (hosts: ${facts.hosts.map((h) => h.fullName).join(", ")})` : ""}`] : [];
  // A link a seat already has (the provider's, stored for the seats before) is the start's place.
  const link = seats.map((s) => s.location).find((l) => isWebAddress(l));
  const awaiting = link === undefined && awaitsMeetingLink(first.location);
  return {
    uid,
    title: `${facts.title} (${seats.length} ${seats.length === 1 ? "guest" : "guests"})`,
    description: [`Booked through ${siteUrl("")} by ${seats.length} ${seats.length === 1 ? "guest" : "guests"}:`, ...guests, ...team].join("\n"),
    location: link ?? (awaiting ? "" : first.location),
    wantsMeeting: awaiting && facts.host.userId === first.hostId,
    start: first.startTime.getTime(),
    end: first.endTime.getTime(),
    timeZone: facts.host.timezone,
    attendees: seats.filter((s) => s.guestEmail).map((s) => ({ name: s.guestName, email: s.guestEmail })),
  };
}

/** The start's meeting link (the provider made it, or a seat has it) for every seat still awaiting one. */
async function shareMeetingLink(db: Db, seats: BookingRow[], url: string | undefined): Promise<void> {
  if (!url) return;
  for (const seat of seats) if (awaitsMeetingLink(seat.location)) await storeMeetingLink(db, seat.id, url, Date.now(), "provider");
}

/** One pass over one seated start: its event in the host's calendar made, updated to its seats, or removed with the last one; a row per seat in it. */
async function reconcileSeat(db: Db, seatKey: string, hostId: string): Promise<void> {
  const uid = seatUid(seatKey);
  const seats = await seatsOf(db, seatKey, hostId);
  const ours = and(eq(bookingCalendarEvents.hostId, hostId), eq(bookingCalendarEvents.uid, uid));
  const [written] = await db.select().from(bookingCalendarEvents).where(ours).limit(1);
  const facts = seats.length > 0 ? await loadBookingFacts(db, seats[0]!.id, hostId) : undefined;

  let place: { calendarId: string; eventId: string };
  if (written) {
    const where = await connectionOfCalendar(db, written.calendarId);
    if (!where) return; // the calendar was disconnected: nothing of ours is there to change
    const calendarId = where.calendar.externalId;
    if (!facts) {
      await using(db, where.connection, (client) => client.deleteEvent(calendarId, written.externalEventId));
      await db.delete(bookingCalendarEvents).where(ours);
      return;
    }
    const event = seatEventOf(facts, seats, uid);
    const { eventId, meetingUrl } = await using(db, where.connection, async (client) => {
      try {
        await client.updateEvent(calendarId, written.externalEventId, event);
        return { eventId: written.externalEventId, meetingUrl: undefined };
      } catch (error) {
        // The host deleted the event in their calendar: the start still has seats, so it is written again.
        if (!(error instanceof CalendarError && error.kind === "not_found")) throw error;
        return client.createEvent(calendarId, event);
      }
    });
    await shareMeetingLink(db, seats, event.wantsMeeting ? meetingUrl : event.location || undefined);
    place = { calendarId: written.calendarId, eventId };
  } else {
    if (!facts) return;
    const [target] = await db
      .select({ calendar: calendars, connection: calendarConnections })
      .from(calendars)
      .innerJoin(calendarConnections, eq(calendarConnections.id, calendars.connectionId))
      .where(and(eq(calendars.userId, hostId), eq(calendars.writeTarget, true)))
      .limit(1);
    if (!target) return; // no write target: the seats stay in this service only
    const event = seatEventOf(facts, seats, uid);
    const { eventId, meetingUrl } = await using(db, target.connection, (client) => client.createEvent(target.calendar.externalId, event));
    // Stored before the rows: a seat whose event is written without a link has none coming.
    await shareMeetingLink(db, seats, event.wantsMeeting ? meetingUrl : event.location || undefined);
    place = { calendarId: target.calendar.id, eventId };
  }
  const ids = seats.map((s) => s.id);
  await db.update(bookingCalendarEvents).set({ calendarId: place.calendarId, externalEventId: place.eventId, updatedAt: new Date() }).where(and(ours, inArray(bookingCalendarEvents.bookingId, ids)));
  await db.delete(bookingCalendarEvents).where(and(ours, notInArray(bookingCalendarEvents.bookingId, ids)));
  await db
    .insert(bookingCalendarEvents)
    .values(ids.map((bookingId) => ({ bookingId, hostId, calendarId: place.calendarId, externalEventId: place.eventId, uid })))
    .onConflictDoNothing();
}

/** A seat's calendar write: every seated start it is or was in, brought to its seats, until a pass finds them as it wrote them. */
async function writeSeats(db: Db, bookingId: string, hostId: string): Promise<boolean> {
  for (let pass = 0; pass < 3; pass += 1) {
    const seatKeys = await seatKeysOf(db, bookingId, hostId);
    const before = await seatsVersion(db, seatKeys, hostId);
    for (const seatKey of seatKeys) await reconcileSeat(db, seatKey, hostId);
    if ((await seatsVersion(db, await seatKeysOf(db, bookingId, hostId), hostId)) === before) return true;
  }
  return false;
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
    // A seat (decisions §19): its start's one event, not an event of its own.
    if ((await seatKeysOf(db, bookingId, hostId)).length > 0) {
      return (await writeSeats(db, bookingId, hostId)) ? { status: "done" } : { status: "retry", error: "The seats kept changing while their calendar event was written" };
    }
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
