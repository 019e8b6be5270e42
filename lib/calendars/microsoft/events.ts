import "server-only";
import { createHash } from "node:crypto";
import { CalendarError, deleteIgnoringGone, type CalendarEvent, type CreatedEvent } from "../types";
import { meetingRequest, meetingUrlOf } from "./meeting-link";
import type { MicrosoftSession } from "./session";
import { parseUtc, toGraphDateTime, type GraphEvent } from "./wire";

// A booking's event in an Outlook calendar. Graph's transactionId, derived from the booking's uid,
// makes a retried create return the event an earlier attempt made.

/** Graph's transactionId for a booking's event: UUID-shaped, the same for every retry of the same uid. */
export function microsoftTransactionId(uid: string): string {
  const hex = createHash("sha256").update(uid).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function toGraphEvent(event: CalendarEvent) {
  return {
    subject: event.title,
    body: { contentType: "text", content: event.description },
    start: { dateTime: toGraphDateTime(event.start), timeZone: "UTC" },
    end: { dateTime: toGraphDateTime(event.end), timeZone: "UTC" },
    location: { displayName: event.location },
    // No attendees: Graph would have Outlook mail its own invitation (and later a cancellation)
    // from the host's mailbox, and the guest already gets ours (decisions §12). The guest is
    // named in the body instead.
  };
}

function sameAs(found: GraphEvent, event: CalendarEvent): boolean {
  return (
    found.subject === event.title &&
    (found.location?.displayName ?? "") === event.location &&
    parseUtc(found.start?.dateTime) === event.start &&
    parseUtc(found.end?.dateTime) === event.end
  );
}

/** Graph event ids are unique in the mailbox: the calendar is not part of the address. */
export async function updateEvent({ graph }: MicrosoftSession, eventId: string, event: CalendarEvent): Promise<void> {
  await graph("PATCH", `/me/events/${encodeURIComponent(eventId)}`, "Updating the Microsoft event", { body: toGraphEvent(event) });
}

export async function createEvent(session: MicrosoftSession, calendarId: string, event: CalendarEvent): Promise<CreatedEvent> {
  const { body } = await session.graph("POST", `/me/calendars/${encodeURIComponent(calendarId)}/events`, "Creating the Microsoft event", {
    body: { ...toGraphEvent(event), ...meetingRequest(event), transactionId: microsoftTransactionId(event.uid) },
  });
  const created = (body ?? {}) as GraphEvent & { onlineMeeting?: { joinUrl?: unknown } | null };
  if (!created.id) throw new CalendarError("rejected", "Creating the Microsoft event: Microsoft returned no event id");
  // A retried POST Graph recognises by its transactionId returns the event as first written:
  // the booking may have moved since, so it is brought up to date (a PATCH keeps the meeting).
  if (!sameAs(created, event)) await updateEvent(session, created.id, event);
  const meetingUrl = meetingUrlOf(event, created);
  return meetingUrl ? { eventId: created.id, meetingUrl } : { eventId: created.id };
}

export function deleteEvent({ graph }: MicrosoftSession, eventId: string): Promise<void> {
  return deleteIgnoringGone(() => graph("DELETE", `/me/events/${encodeURIComponent(eventId)}`, "Deleting the Microsoft event"));
}
