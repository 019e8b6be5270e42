import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from "ical-generator";
import { getConfig } from "@/lib/config";

// The booking as an iCalendar invitation (RFC 5545/5546), built by ical-generator. One UID per
// booking for its whole life, so a calendar updates the event it already has: METHOD:REQUEST
// with a higher SEQUENCE moves it, METHOD:CANCEL removes it.

export type BookingIcsInput = {
  bookingId: string;
  /** The booking's SEQUENCE at this version: 0 when made, +1 on every reschedule and on cancel. */
  sequence: number;
  cancelled: boolean;
  title: string;
  /** The other party's name: the guest's copy says "… with the host", the host's "… with the guest". */
  withName: string;
  start: Date;
  end: Date;
  location: string;
  description: string;
  host: { name: string; email: string };
  guest: { name: string; email: string };
  /** When this version was made (DTSTAMP). */
  stamp: Date;
};

export function bookingUid(bookingId: string): string {
  return `${bookingId}@${new URL(getConfig().appUrl).hostname}`;
}

export function icsMethodOf(cancelled: boolean): "REQUEST" | "CANCEL" {
  return cancelled ? "CANCEL" : "REQUEST";
}

export function bookingIcs(input: BookingIcsInput): string {
  const calendar = ical({
    prodId: { company: "Booking", product: "Booking", language: "EN" },
    method: input.cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  calendar.createEvent({
    id: bookingUid(input.bookingId),
    sequence: input.sequence,
    stamp: input.stamp,
    start: input.start,
    end: input.end,
    summary: `${input.title} with ${input.withName}`,
    description: input.description || null,
    location: input.location || null,
    status: input.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: input.host.name, email: input.host.email },
    attendees: [
      {
        name: input.guest.name,
        email: input.guest.email,
        role: ICalAttendeeRole.REQ,
        status: input.cancelled ? ICalAttendeeStatus.DECLINED : ICalAttendeeStatus.ACCEPTED,
        rsvp: false,
      },
    ],
  });
  return calendar.toString();
}
