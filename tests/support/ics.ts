import ICAL from "ical.js";

// An iCalendar text read back with ical.js: what a calendar client would take from it.
export function readIcs(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const vevent = calendar.getFirstSubcomponent("vevent")!;
  const event = new ICAL.Event(vevent);
  return {
    method: calendar.getFirstPropertyValue("method"),
    uid: event.uid,
    sequence: event.sequence,
    status: vevent.getFirstPropertyValue("status"),
    start: event.startDate.toJSDate().toISOString().replace(/\.000Z$/, "Z"),
    end: event.endDate.toJSDate().toISOString().replace(/\.000Z$/, "Z"),
    summary: event.summary,
    // The URI scheme is case-insensitive (RFC 5545 §3.3.3); ical-generator writes MAILTO: for attendees.
    organizer: String(vevent.getFirstPropertyValue("organizer")).replace(/^mailto:/i, "mailto:"),
    attendees: vevent.getAllProperties("attendee").map((p) => String(p.getFirstValue()).replace(/^mailto:/i, "mailto:")),
  };
}
