import "server-only";
import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from "ical-generator";
import { bookingUid } from "@/lib/links";
import { isWebAddress } from "@/lib/meeting-location";

// The booking as an iCalendar invitation (RFC 5545/5546), built by ical-generator. One UID per
// booking for its whole life, so a calendar updates the event it already has: METHOD:REQUEST
// with a higher SEQUENCE moves it, METHOD:CANCEL removes it. A series' message holds one VEVENT
// per occurrence, each under its occurrence's UID (decisions §19).

export type BookingIcsInput = {
  bookingId: string;
  /** The booking's SEQUENCE at this version: 0 when made, +1 on every reschedule and on cancel. */
  sequence: number;
  cancelled: boolean;
  /** The event's name for its reader: the guest's copy says "… with the host", the host's "… with the guest". */
  summary: string;
  start: Date;
  end: Date;
  location: string;
  description: string;
  /** The language summary and description are written in (the calendar's LANGUAGE). */
  language?: string;
  host: { name: string; email: string };
  guest: { name: string; email: string };
  /** When this version was made (DTSTAMP). */
  stamp: Date;
  /**
   * A message of several occurrences of a series (decisions §19): one VEVENT for each, under that
   * occurrence's own UID (as its calendar write and its feed entry), with its own times, SEQUENCE
   * and status; the fields above give the rest. Absent: the one booking above.
   */
  occurrences?: IcsOccurrence[];
};

/** One occurrence of a series in an invitation. */
export type IcsOccurrence = { bookingId: string; sequence: number; start: Date; end: Date; cancelled: boolean };


/**
 * A name as an iCalendar parameter value (CN=…): RFC 5545 has no escape inside a quoted
 * parameter, so a `"` in a guest's name ended the value and let the rest be read as the
 * attendee's address. RFC 6868 encodes `^`, `"` and line breaks (ical.js decodes them back).
 */
export function icsParam(value: string): string {
  return value.replace(/\^/g, "^^").replace(/"/g, "^'").replace(/\r\n|\r|\n/g, "^n");
}

export function icsMethodOf(cancelled: boolean): "REQUEST" | "CANCEL" {
  return cancelled ? "CANCEL" : "REQUEST";
}

/** One VEVENT: the booking's (or an occurrence's) times, UID, SEQUENCE and status, with the message's other fields. */
function eventOf(input: BookingIcsInput, at: IcsOccurrence) {
  return {
    id: bookingUid(at.bookingId),
    sequence: at.sequence,
    stamp: input.stamp,
    start: at.start,
    end: at.end,
    summary: input.summary,
    description: input.description || null,
    location: input.location || null,
    // A meeting link is also the event's URL: calendar apps offer it as "join".
    url: isWebAddress(input.location) ? input.location.trim() : null,
    status: at.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: icsParam(input.host.name), email: input.host.email },
    // An erased guest has no address (decisions §16): the event then has no guest ATTENDEE.
    attendees: input.guest.email
      ? [
          {
            name: icsParam(input.guest.name),
            email: input.guest.email,
            role: ICalAttendeeRole.REQ,
            status: at.cancelled ? ICalAttendeeStatus.DECLINED : ICalAttendeeStatus.ACCEPTED,
            rsvp: false,
          },
        ]
      : [],
  };
}

export function bookingIcs(input: BookingIcsInput): string {
  const calendar = ical({
    prodId: { company: "Booking", product: "Booking", language: (input.language ?? "en").toUpperCase() },
    method: input.cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  const single = { bookingId: input.bookingId, sequence: input.sequence, start: input.start, end: input.end, cancelled: input.cancelled };
  for (const occurrence of input.occurrences ?? [single]) calendar.createEvent(eventOf(input, occurrence));
  return calendar.toString();
}
