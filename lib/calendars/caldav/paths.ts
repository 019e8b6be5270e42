import "server-only";
import { createHash } from "node:crypto";
import { CalendarError } from "../types";

// Where a calendar's objects live. A calendar is its collection URL; an event is keyed by its
// object's full URL, which stays on the calendar's server (the login goes with every request).

export const withSlash = (url: string) => (url.endsWith("/") ? url : `${url}/`);

/** An object's href as a full URL: the event key, and the form a booking's own event id has. */
export const keyOf = (calendarId: string, href: string) => new URL(href, withSlash(calendarId)).href;

/** Whether a multistatus entry is an object of the calendar rather than the collection itself. */
export const isObject = (calendarId: string, href: string | undefined) =>
  !!href && keyOf(calendarId, href) !== withSlash(calendarId) && keyOf(calendarId, href) !== calendarId;

/** Resolves an object URL against its calendar; it must stay on that server, since the login goes with it. */
export function objectUrl(calendarId: string, eventId: string): string {
  const url = new URL(eventId, withSlash(calendarId));
  if (url.origin !== new URL(calendarId).origin) throw new CalendarError("rejected", "The event is not on the calendar's server");
  return url.href;
}

/** The object's file name: readable, and collision-free through a hash of the whole uid. */
export function eventFileName(uid: string): string {
  const readable = uid.replace(/[^A-Za-z0-9_-]+/g, "-").slice(0, 64);
  const hash = createHash("sha256").update(uid).digest("hex").slice(0, 16);
  return `${readable}-${hash}.ics`;
}
