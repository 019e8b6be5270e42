import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { bookingCalendarEvents, bookings, calendarConnections, calendars } from "@/db/schema";
import { getConfig } from "@/lib/config";
import { awaitsMeetingLink, fillMeetingTemplate } from "@/lib/meeting-location";
import { recordHistory, SYSTEM } from "./history";
import { writeBooking } from "./write-booking";

// Meeting links (decisions §17). A booking of a `video` event type keeps the location `video`
// until its link is known, then the link itself:
// - the host writes to a Google or Microsoft calendar: the calendar write (after the commit, in
//   the outbox) asks the provider for a Meet / Teams meeting and stores its join URL here;
// - else, with VIDEO_URL_TEMPLATE: the link is made in the booking's own transaction;
// - else: no link; people read "the host will send the meeting link".
// The messages of a booking event whose link is still coming wait for it, in the outbox (the
// fan-out defers itself, see effects.ts), at most MEETING_LINK_WAIT_MS after the event; then
// they go with the template's link if there is one, else with those words.

/** The longest the messages of a new `video` booking wait for the provider's link. */
export const MEETING_LINK_WAIT_MS = 60_000;
/** How often a waiting fan-out looks again (an outbox deferral, not a timer). */
export const MEETING_LINK_RECHECK_MS = 1_000;

/** The providers whose events carry a meeting of their own (CalDAV has none). */
const CONFERENCING = ["provider_a", "provider_b"] as const;

/** Whether the host's write target is a calendar that makes meetings (and its grant still works). */
export async function hostMakesMeetings(db: Db | Tx, hostId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: calendars.id })
    .from(calendars)
    .innerJoin(calendarConnections, eq(calendarConnections.id, calendars.connectionId))
    .where(
      and(
        eq(calendars.userId, hostId),
        eq(calendars.writeTarget, true),
        inArray(calendarConnections.provider, [...CONFERENCING]),
        ne(calendarConnections.status, "reauth_required"),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** A link from VIDEO_URL_TEMPLATE: a fresh 128-bit room name, or the booking's id (itself 128 random bits). */
export function templateLink(bookingId: string): string | undefined {
  const template = getConfig().videoUrlTemplate;
  return template && fillMeetingTemplate(template, { room: randomBytes(16).toString("hex"), bookingId });
}

/**
 * The location a new booking is stored with, inside its transaction: the event type's, or for a
 * `video` one the template's link when no calendar of the host will make one. `linkComing`: a
 * `video` location will become a link by email (the host's calendar makes it) rather than be
 * sent by the host.
 */
export async function initialLocation(tx: Tx, location: string, hostId: string, bookingId: string): Promise<{ location: string; linkComing: boolean }> {
  if (!awaitsMeetingLink(location)) return { location, linkComing: false };
  if (await hostMakesMeetings(tx, hostId)) return { location, linkComing: true };
  const link = templateLink(bookingId);
  return link ? { location: link, linkComing: false } : { location, linkComing: false };
}

/**
 * Stores a booking's meeting link, once: only while its location still awaits one (a link the
 * guest was already sent is never replaced). Written to the booking's history. True if stored.
 * Under the hosts' booking locks, as every change of a booking (write-booking.ts).
 */
export async function storeMeetingLink(db: Db, bookingId: string, url: string, now: number, source: "provider" | "template"): Promise<boolean> {
  return writeBooking(db, bookingId, async (tx) => {
    const updated = await tx
      .update(bookings)
      .set({ location: url })
      .where(and(eq(bookings.id, bookingId), sql`lower(trim(${bookings.location})) = 'video'`))
      .returning({ id: bookings.id });
    if (updated.length === 0) return false;
    await recordHistory(tx, bookingId, "meeting_link", SYSTEM, now, { location: url, source });
    return true;
  });
}

export type MeetingLinkState = { wait: true } | { wait: false; location: string };

/**
 * Whether the messages of a booking event should wait for the meeting link (`wait`), or may go
 * now with `location` (the link, or still `video` when none will come). Past the wait, a
 * template's link is stored for the booking first, so the guest, the host and every later
 * message see the same one.
 */
export async function meetingLinkState(db: Db, bookingId: string, occurredAt: number, now: number): Promise<MeetingLinkState> {
  const [row] = await db
    .select({
      location: bookings.location,
      hostId: bookings.hostId,
      written: sql<boolean>`exists (select 1 from ${bookingCalendarEvents} where ${bookingCalendarEvents.bookingId} = ${bookings.id} and ${bookingCalendarEvents.hostId} = ${bookings.hostId})`,
    })
    .from(bookings)
    .where(eq(bookings.id, bookingId))
    .limit(1);
  if (!row || !awaitsMeetingLink(row.location)) return { wait: false, location: row?.location ?? "" };
  // The event is written and still no link: the provider made none (conferencing switched off
  // for the account), so waiting longer brings nothing.
  if (!row.written && now < occurredAt + MEETING_LINK_WAIT_MS && (await hostMakesMeetings(db, row.hostId))) return { wait: true };
  const link = templateLink(bookingId);
  if (link && (await storeMeetingLink(db, bookingId, link, now, "template"))) return { wait: false, location: link };
  const [after] = await db.select({ location: bookings.location }).from(bookings).where(eq(bookings.id, bookingId)).limit(1);
  return { wait: false, location: after?.location ?? row.location };
}

/**
 * Whether a booking's meeting link is still to come (its calendar is making it, and the wait is
 * not over): what a guest reads then is "on its way by email", not "the host will send it".
 */
export async function meetingLinkComing(db: Db, booking: { location: string; hostId: string; createdAt: Date }, now: number): Promise<boolean> {
  if (!awaitsMeetingLink(booking.location) || now >= booking.createdAt.getTime() + MEETING_LINK_WAIT_MS) return false;
  return hostMakesMeetings(db, booking.hostId);
}
