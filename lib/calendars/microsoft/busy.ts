import "server-only";
import { DateTime } from "luxon";
import { CalendarError, type BusyRange, type CalendarChanges, type ChangesRange } from "../types";
import { query } from "./http";
import { assertGraphLink, type MicrosoftSession } from "./session";
import { parseUtc, type GraphEvent } from "./wire";

// Busy time from Graph: calendarView for a range (a check at booking), and calendarView/delta for
// the incremental read of one calendar (the background sync, decisions §17).

const DAY_MS = 86_400_000;
/** A page size Graph accepts for events; it may still answer with fewer and a nextLink. */
const EVENTS_PAGE = 250;
/** The delta page size asked for (`Prefer: odata.maxpagesize`); Graph may send fewer. */
const DELTA_PAGE = 200;
/** Graph's words for a delta link it no longer knows: start again with a full read. */
const RESYNC_CODES = /\b(syncStateNotFound|syncStateInvalid|resyncRequired)\b/;
/** `showAs` values that leave the time bookable. */
const NOT_BUSY = new Set(["free", "workingElsewhere"]);

/** An event as busy time in [from, to), or nothing when it leaves the time free. */
export function toBusy(e: GraphEvent, range: ChangesRange): BusyRange | undefined {
  if (e.isCancelled || (e.showAs && NOT_BUSY.has(e.showAs))) return undefined;
  let start: number;
  let end: number;
  if (e.isAllDay) {
    // All-day events come back midnight to midnight whatever zone is asked for: they are
    // days, and the host's days are what they block.
    const day = (value: string | undefined) => {
      const date = (value ?? "").slice(0, 10);
      const local = DateTime.fromISO(date, { zone: range.timeZone });
      return (local.isValid ? local : DateTime.fromISO(date, { zone: "UTC" })).toMillis();
    };
    start = day(e.start?.dateTime);
    end = day(e.end?.dateTime);
  } else {
    start = parseUtc(e.start?.dateTime);
    end = parseUtc(e.end?.dateTime);
  }
  if (Number.isNaN(start) || Number.isNaN(end)) return undefined;
  // Clipped like Google's free/busy, so the sync's consecutive windows join without overlap.
  start = Math.max(start, range.from);
  end = Math.min(end, range.to);
  if (start >= end) return undefined;
  return e.id ? { start, end, eventId: e.id } : { start, end };
}

/**
 * Graph matches all-day events against the window as if they were UTC days: ask for a day more on
 * each side, and toBusy keeps what overlaps once they are read in the host's zone.
 */
function widened(range: ChangesRange) {
  return { startDateTime: new Date(range.from - DAY_MS).toISOString(), endDateTime: new Date(range.to + DAY_MS).toISOString() };
}

/** Busy time of each calendar in the range (its calendarView). */
export async function calendarViewBusy({ all }: MicrosoftSession, calendarIds: string[], range: ChangesRange): Promise<Map<string, BusyRange[]>> {
  const result = new Map<string, BusyRange[]>();
  const window = query({ ...widened(range), $select: "start,end,showAs,isCancelled,isAllDay,id", $top: String(EVENTS_PAGE) });
  // One calendar at a time: Graph throttles a mailbox at four concurrent requests.
  for (const id of calendarIds) {
    try {
      const events = await all<GraphEvent>(`/me/calendars/${encodeURIComponent(id)}/calendarView?${window}`, "Reading Microsoft busy time", {
        prefer: 'outlook.timezone="UTC"',
      });
      result.set(id, events.flatMap((e) => toBusy(e, range) ?? []));
    } catch (e) {
      // A calendar removed since it was listed has no answer; the others still count.
      if (!(e instanceof CalendarError && e.kind === "not_found")) throw e;
    }
  }
  return result;
}

/**
 * Walks a calendarView delta from `url` (the first request, or a stored deltaLink) through
 * every nextLink to the deltaLink, which is kept as the state of the next read.
 */
async function delta({ graph }: MicrosoftSession, url: string, full: boolean, range: ChangesRange): Promise<CalendarChanges> {
  const action = "Reading Microsoft calendar changes";
  const upserts = new Map<string, BusyRange[]>();
  const removed: string[] = [];
  let next = url;
  for (;;) {
    if (!next.startsWith("/")) assertGraphLink(next, action, "a link");
    const { body } = await graph("GET", next, action, { headers: { prefer: `outlook.timezone="UTC", odata.maxpagesize=${DELTA_PAGE}` } });
    const page = (body ?? {}) as { value?: GraphEvent[]; "@odata.nextLink"?: unknown; "@odata.deltaLink"?: unknown };
    for (const e of page.value ?? []) {
      if (!e.id) continue;
      if (e["@removed"]) {
        upserts.delete(e.id);
        removed.push(e.id);
      } else {
        const busy = toBusy(e, range);
        upserts.set(e.id, busy ? [busy] : []);
      }
    }
    if (typeof page["@odata.nextLink"] === "string") {
      next = page["@odata.nextLink"];
      continue;
    }
    if (typeof page["@odata.deltaLink"] !== "string") throw new CalendarError("rejected", `${action}: Microsoft sent neither a next nor a delta link`);
    return { full, upserts, removed, state: page["@odata.deltaLink"] };
  }
}

/** What changed in one calendar since `state` (a deltaLink), or the span whole without one. */
export async function deltaChanges(session: MicrosoftSession, calendarId: string, { state, ...range }: ChangesRange & { state: string | null }): Promise<CalendarChanges> {
  const first = `/me/calendars/${encodeURIComponent(calendarId)}/calendarView/delta?${query(widened(range))}`;
  if (!state) return delta(session, first, true, range);
  try {
    return await delta(session, state, false, range);
  } catch (e) {
    // 410 Gone (syncStateNotFound) or resyncRequired: the delta link is spent; read the span whole.
    if (e instanceof CalendarError && (e.status === 410 || RESYNC_CODES.test(e.message))) return delta(session, first, true, range);
    throw e;
  }
}
