import "server-only";
import { deleteObject, updateObject } from "tsdav";
import { deleteIgnoringGone, type CalendarEvent, type CreatedEvent } from "../types";
import type { DavConnection } from "./connection";
import type { Fetch } from "./fetch";
import { eventIcs } from "./ics";
import { eventFileName, objectUrl } from "./paths";

// A booking's event as a calendar object, named after the booking's uid: writing the same booking
// again replaces it. CalDAV makes no meetings: `wantsMeeting` is ignored.

async function put(fetch: Fetch, url: string, event: CalendarEvent): Promise<void> {
  // No If-Match / If-None-Match: writing the same booking again replaces it (idempotent).
  await updateObject({ url, data: eventIcs(event), headers: { "content-type": "text/calendar; charset=utf-8" }, fetch });
}

export function createEvent({ call }: DavConnection, calendarId: string, event: CalendarEvent): Promise<CreatedEvent> {
  return call("Writing a CalDAV event", async (fetch) => {
    const url = objectUrl(calendarId, eventFileName(event.uid));
    await put(fetch, url, event);
    return { eventId: url };
  });
}

export function updateEvent({ call }: DavConnection, calendarId: string, eventId: string, event: CalendarEvent): Promise<void> {
  return call("Updating a CalDAV event", async (fetch) => {
    await put(fetch, objectUrl(calendarId, eventId), event);
  });
}

export function deleteEvent({ call }: DavConnection, calendarId: string, eventId: string): Promise<void> {
  return call("Deleting a CalDAV event", (fetch) => deleteIgnoringGone(() => deleteObject({ url: objectUrl(calendarId, eventId), fetch })));
}
