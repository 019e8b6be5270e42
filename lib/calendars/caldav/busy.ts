import "server-only";
import { calendarQuery, type DAVResponse } from "tsdav";
import { log } from "@/lib/log";
import { CalendarError, type BusyRange, type ChangesRange } from "../types";
import type { DavConnection } from "./connection";
import type { Fetch } from "./fetch";
import { busyOfIcs, isZone } from "./ics";

// Busy time out of calendar objects: a calendar-query for a span, each object's VEVENTs read by
// ical.js (recurrences expanded). Used for a range (a check at booking) and by full reads.

const DAY_MS = 86_400_000;

/** `20250101T000000Z`, as a CalDAV time-range wants it. */
const davTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}/, "").replace(/[-:]/g, "");

const calendarData = (r: DAVResponse): unknown => r.props?.calendarData?._cdata ?? r.props?.calendarData;

/** A zone the host's all-day and floating events can be read in, or CalendarError. */
export function assertZone(timeZone: string): void {
  if (!isZone(timeZone)) throw new CalendarError("rejected", `unknown time zone ${timeZone}`);
}

/** The busy ranges of one object of the answer; none when it holds no calendar data. */
export function busyOfObject(calendarId: string, r: DAVResponse, range: ChangesRange): BusyRange[] {
  const data = calendarData(r);
  if (typeof data !== "string" || !data.includes("BEGIN:VCALENDAR")) return [];
  try {
    return busyOfIcs(data, range);
  } catch (error) {
    // One broken object (another client's bug) must not hide the rest of the calendar.
    log.warn({ err: error, calendar: calendarId, object: r.href }, "caldav: unreadable calendar object skipped");
    return [];
  }
}

/** The span's objects with their data (a calendar-query with a time range). */
export function objectsInSpan(fetch: Fetch, calendarId: string, range: ChangesRange): Promise<DAVResponse[]> {
  // Floating and all-day events are compared by the server in a zone of its choosing:
  // ask a day wider on each side and cut exactly here.
  const filters = {
    "comp-filter": {
      _attributes: { name: "VCALENDAR" },
      "comp-filter": {
        _attributes: { name: "VEVENT" },
        "time-range": { _attributes: { start: davTime(range.from - DAY_MS), end: davTime(range.to + DAY_MS) } },
      },
    },
  };
  return calendarQuery({ url: calendarId, depth: "1", props: { "d:getetag": {}, "c:calendar-data": {} }, filters, fetch });
}

/** Busy time of each calendar in the range; a calendar deleted since it was listed is left out. */
export function caldavBusy({ call }: DavConnection, calendarIds: string[], range: ChangesRange): Promise<Map<string, BusyRange[]>> {
  return call("Reading CalDAV busy times", async (fetch) => {
    assertZone(range.timeZone);
    const result = new Map<string, BusyRange[]>();
    if (range.from >= range.to) return result;
    const answers = await Promise.all(
      calendarIds.map(async (id) => {
        try {
          return [id, await objectsInSpan(fetch, id, range)] as const;
        } catch (error) {
          if (error instanceof CalendarError && error.kind === "not_found") return undefined;
          throw error;
        }
      }),
    );
    for (const answer of answers) {
      if (!answer) continue;
      const [id, responses] = answer;
      const ranges = responses.flatMap((r) => busyOfObject(id, r, range));
      result.set(id, ranges.sort((a, b) => a.start - b.start || a.end - b.end));
    }
    return result;
  });
}
