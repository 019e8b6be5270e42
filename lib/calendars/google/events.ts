import "server-only";
import { createHash } from "node:crypto";
import type { calendar_v3 } from "googleapis/build/src/apis/calendar";
import { CalendarError, deleteIgnoringGone, type CalendarEvent, type CreatedEvent } from "../types";
import { meetingRequest, meetingUrlOf } from "./meeting-link";
import { callOptions } from "./oauth";
import type { GoogleSession } from "./session";

// A booking's event in a Google calendar. Its id is derived from the booking's uid, so a retried
// create finds the event an earlier attempt made.

/** Google event ids allow base32hex (a–v, 0–9), 5–1024 characters: hex of a hash fits. */
export function googleEventId(uid: string): string {
  return createHash("sha256").update(uid).digest("hex");
}

function toGoogleEvent(event: CalendarEvent): calendar_v3.Schema$Event {
  return {
    summary: event.title,
    description: event.description,
    location: event.location,
    start: { dateTime: new Date(event.start).toISOString(), timeZone: event.timeZone },
    end: { dateTime: new Date(event.end).toISOString(), timeZone: event.timeZone },
    attendees: event.attendees.map((a) => ({ email: a.email, displayName: a.name })),
    // An update through the 409 path must also revive an event deleted in Google (kept as cancelled).
    status: "confirmed",
  };
}

export async function createEvent({ api, call }: GoogleSession, calendarId: string, event: CalendarEvent): Promise<CreatedEvent> {
  const id = googleEventId(event.uid);
  const meeting = meetingRequest(event, id);
  const requestBody = { ...toGoogleEvent(event), ...meeting?.body };
  let written: calendar_v3.Schema$Event;
  try {
    ({ data: written } = await call("Creating the Google event", () =>
      api.events.insert({ calendarId, sendUpdates: "none", ...meeting?.params, requestBody: { ...requestBody, id } }, callOptions()),
    ));
  } catch (e) {
    // 409: this booking's event is already there (an earlier attempt got through): make it
    // current. The same requestId asks for no second meeting: Google keeps the one it made.
    if (!(e instanceof CalendarError && e.status === 409)) throw e;
    ({ data: written } = await call("Updating the Google event", () =>
      api.events.update({ calendarId, eventId: id, sendUpdates: "none", ...meeting?.params, requestBody }, callOptions()),
    ));
  }
  const meetingUrl = meeting ? meetingUrlOf(written) : undefined;
  return meetingUrl ? { eventId: id, meetingUrl } : { eventId: id };
}

export async function updateEvent({ api, call }: GoogleSession, calendarId: string, eventId: string, event: CalendarEvent): Promise<void> {
  await call("Updating the Google event", () => api.events.patch({ calendarId, eventId, sendUpdates: "none", requestBody: toGoogleEvent(event) }, callOptions()));
}

export function deleteEvent({ api, call }: GoogleSession, calendarId: string, eventId: string): Promise<void> {
  return deleteIgnoringGone(() => call("Deleting the Google event", () => api.events.delete({ calendarId, eventId, sendUpdates: "none" }, callOptions())));
}
