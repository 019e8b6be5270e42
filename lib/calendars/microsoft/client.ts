import "server-only";
import type { CalendarClient, OAuthProvider } from "../types";
import { calendarViewBusy, deltaChanges } from "./busy";
import { listCalendars } from "./calendars";
import { createEvent, deleteEvent, updateEvent } from "./events";
import { graphPush } from "./push";
import { microsoftSession } from "./session";

/** The CalendarClient of one Microsoft account: every call goes through one session (its tokens, its `graph`). */
export function microsoftClient(args: Parameters<OAuthProvider["client"]>[0]): CalendarClient {
  const session = microsoftSession(args);
  return {
    listCalendars: () => listCalendars(session),
    busy: (calendarIds, range) => calendarViewBusy(session, calendarIds, range),
    changes: (calendarId, read) => deltaChanges(session, calendarId, read),
    createEvent: (calendarId, event) => createEvent(session, calendarId, event),
    updateEvent: (_calendarId, eventId, event) => updateEvent(session, eventId, event),
    deleteEvent: (_calendarId, eventId) => deleteEvent(session, eventId),
    push: graphPush(session),
  };
}
