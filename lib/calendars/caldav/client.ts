import "server-only";
import type { CalDavCredentials, CalendarClient, ExternalCalendar } from "../types";
import { caldavBusy } from "./busy";
import { listCalendars } from "./calendars";
import { caldavChanges } from "./changes";
import { davConnection } from "./connection";
import { createEvent, deleteEvent, updateEvent } from "./events";

/** The CalendarClient of one CalDAV login: every call goes through one connection (its server, its discovery). */
export function caldavClient(credentials: CalDavCredentials, options: { timeoutMs?: number } = {}): CalendarClient {
  const connection = davConnection(credentials, options);
  return {
    listCalendars: () => listCalendars(connection),
    busy: (calendarIds, range) => caldavBusy(connection, calendarIds, range),
    changes: (calendarId, read) => caldavChanges(connection, calendarId, read),
    createEvent: (calendarId, event) => createEvent(connection, calendarId, event),
    updateEvent: (calendarId, eventId, event) => updateEvent(connection, calendarId, eventId, event),
    deleteEvent: (calendarId, eventId) => deleteEvent(connection, calendarId, eventId),
  };
}

/**
 * Logs in and lists the calendars, before a connection is stored: CalendarError("auth") for a
 * wrong login, "unavailable" when the server cannot be reached.
 */
export async function verifyCalDavCredentials(credentials: CalDavCredentials, options: { timeoutMs?: number } = {}): Promise<ExternalCalendar[]> {
  return caldavClient(credentials, options).listCalendars();
}
