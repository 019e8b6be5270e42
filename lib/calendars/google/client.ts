import "server-only";
import type { CalendarClient, OAuthProvider } from "../types";
import { eventChanges, freeBusy } from "./busy";
import { listCalendars } from "./calendars";
import { createEvent, deleteEvent, updateEvent } from "./events";
import { googlePush } from "./push";
import { googleSession } from "./session";

/** The CalendarClient of one Google account: every call goes through one session (its token, its `call`). */
export function googleClient(args: Parameters<OAuthProvider["client"]>[0]): CalendarClient {
  const session = googleSession(args);
  return {
    listCalendars: () => listCalendars(session),
    busy: (calendarIds, range) => freeBusy(session, calendarIds, range),
    changes: (calendarId, read) => eventChanges(session, calendarId, read),
    createEvent: (calendarId, event) => createEvent(session, calendarId, event),
    updateEvent: (calendarId, eventId, event) => updateEvent(session, calendarId, eventId, event),
    deleteEvent: (calendarId, eventId) => deleteEvent(session, calendarId, eventId),
    push: googlePush(session),
  };
}
