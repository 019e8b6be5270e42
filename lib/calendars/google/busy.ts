import "server-only";
import type { calendar_v3 } from "googleapis/build/src/apis/calendar";
import { DateTime } from "luxon";
import { CalendarError, type BusyRange, type CalendarChanges, type ChangesRange } from "../types";
import { callOptions } from "./oauth";
import type { GoogleSession } from "./session";

// Busy time from Google: free/busy for a range (a check at booking), and the incremental read of
// one calendar's events (the background sync, decisions §17).

/** freebusy.query answers for at most this many calendars (`calendarExpansionMax`). */
const FREEBUSY_MAX_CALENDARS = 50;
/** events.list's largest page. */
const EVENTS_PAGE = 2500;

/**
 * One event of events.list as busy time in [from, to): nothing when it leaves the time free
 * (cancelled, transparent, or declined by the account itself). All-day events (`date`) are the
 * host's days.
 */
export function googleEventBusy(e: calendar_v3.Schema$Event, range: ChangesRange): BusyRange[] {
  if (e.status === "cancelled" || e.transparency === "transparent") return [];
  if (e.attendees?.some((a) => a.self && a.responseStatus === "declined")) return [];
  const at = (t: calendar_v3.Schema$EventDateTime | undefined) => {
    if (t?.dateTime) return Date.parse(t.dateTime);
    const day = t?.date ? DateTime.fromISO(t.date, { zone: range.timeZone }) : undefined;
    return day?.isValid ? day.toMillis() : NaN;
  };
  const start = Math.max(at(e.start), range.from);
  const end = Math.min(at(e.end), range.to);
  if (Number.isNaN(start) || Number.isNaN(end) || start >= end) return [];
  return [e.id ? { start, end, eventId: e.id } : { start, end }];
}

/** Busy time of each calendar in the range, 50 calendars per free/busy query. */
export async function freeBusy({ api, call }: GoogleSession, calendarIds: string[], range: ChangesRange): Promise<Map<string, BusyRange[]>> {
  const result = new Map<string, BusyRange[]>();
  for (let i = 0; i < calendarIds.length; i += FREEBUSY_MAX_CALENDARS) {
    const chunk = calendarIds.slice(i, i + FREEBUSY_MAX_CALENDARS);
    const requestBody = { timeMin: new Date(range.from).toISOString(), timeMax: new Date(range.to).toISOString(), timeZone: range.timeZone, items: chunk.map((id) => ({ id })) };
    const { data } = await call("Reading Google free/busy", () => api.freebusy.query({ requestBody }, callOptions()));
    for (const id of chunk) {
      const entry = data.calendars?.[id];
      // An entry with errors (notFound, internalError…) is no answer, not "free".
      if (!entry || (entry.errors?.length ?? 0) > 0) continue;
      result.set(
        id,
        (entry.busy ?? []).flatMap((b) => {
          const start = Date.parse(b.start ?? "");
          const end = Date.parse(b.end ?? "");
          return Number.isNaN(start) || Number.isNaN(end) ? [] : [{ start, end }];
        }),
      );
    }
  }
  return result;
}

/**
 * One events.list read: the span's events (recurrences expanded) ending in a nextSyncToken, or,
 * with that token, only what changed since, deletions as status "cancelled".
 */
async function readEvents({ api, call }: GoogleSession, calendarId: string, range: ChangesRange, syncToken: string | undefined): Promise<CalendarChanges> {
  const upserts = new Map<string, BusyRange[]>();
  const removed: string[] = [];
  let pageToken: string | undefined;
  for (;;) {
    const window = syncToken ? { syncToken } : { timeMin: new Date(range.from).toISOString(), timeMax: new Date(range.to).toISOString() };
    const { data } = await call("Reading Google events", () =>
      api.events.list({ calendarId, singleEvents: true, maxResults: EVENTS_PAGE, ...window, ...(pageToken ? { pageToken } : {}) }, callOptions()),
    );
    for (const e of data.items ?? []) {
      if (!e.id) continue;
      if (e.status === "cancelled") {
        upserts.delete(e.id);
        removed.push(e.id);
      } else upserts.set(e.id, googleEventBusy(e, range));
    }
    pageToken = data.nextPageToken ?? undefined;
    if (pageToken) continue;
    if (!data.nextSyncToken) throw new CalendarError("rejected", "Reading Google events: Google sent no sync token");
    return { full: !syncToken, upserts, removed, state: data.nextSyncToken };
  }
}

/** What changed in one calendar since `state`, or the span whole without one. */
export async function eventChanges(session: GoogleSession, calendarId: string, { state, ...range }: ChangesRange & { state: string | null }): Promise<CalendarChanges> {
  if (!state) return readEvents(session, calendarId, range, undefined);
  try {
    return await readEvents(session, calendarId, range, state);
  } catch (e) {
    // 410 fullSyncRequired: the token expired or Google dropped it; read the span whole again.
    if (e instanceof CalendarError && e.status === 410) return readEvents(session, calendarId, range, undefined);
    throw e;
  }
}
