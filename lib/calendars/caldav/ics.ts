import "server-only";
import ICAL from "ical.js";
import { DateTime } from "luxon";
import { log } from "@/lib/log";
import type { BusyRange, CalendarEvent } from "../types";

// The iCalendar half of provider_c, with ical.js: the VEVENT written for a booking, and the busy
// ranges read from the objects a CalDAV server returns (recurrences expanded by ical.js itself).

/** A runaway RRULE (FREQ=MINUTELY since 1990) must not stall a sync: expansion stops here. */
const MAX_OCCURRENCES = 50_000;

function utcTime(ms: number): ICAL.Time {
  return ICAL.Time.fromJSDate(new Date(ms), true);
}

/** The booking as a VEVENT in UTC (a VTIMEZONE for `timeZone` cannot be generated here; UTC is exact). */
export function eventIcs(event: CalendarEvent, now: number = Date.now()): string {
  const calendar = new ICAL.Component(["vcalendar", [], []]);
  calendar.updatePropertyWithValue("prodid", "-//Booking//CalDAV//EN");
  calendar.updatePropertyWithValue("version", "2.0");
  const vevent = new ICAL.Component("vevent");
  vevent.updatePropertyWithValue("uid", event.uid);
  vevent.updatePropertyWithValue("dtstamp", utcTime(now));
  vevent.updatePropertyWithValue("dtstart", utcTime(event.start));
  vevent.updatePropertyWithValue("dtend", utcTime(event.end));
  vevent.updatePropertyWithValue("summary", event.title);
  if (event.description) vevent.updatePropertyWithValue("description", event.description);
  if (event.location) vevent.updatePropertyWithValue("location", event.location);
  vevent.updatePropertyWithValue("status", "CONFIRMED");
  vevent.updatePropertyWithValue("transp", "OPAQUE");
  for (const attendee of event.attendees) {
    const property = new ICAL.Property("attendee");
    property.setParameter("cn", attendee.name);
    property.setParameter("partstat", "ACCEPTED");
    // The guest already has our own invitation; SCHEDULE-AGENT=CLIENT (RFC 6638 §7.1) keeps
    // iCloud from mailing a second one on every write.
    property.setParameter("schedule-agent", "CLIENT");
    property.setValue(`mailto:${attendee.email}`);
    vevent.addProperty(property);
  }
  calendar.addSubcomponent(vevent);
  return calendar.toString();
}

export const isZone = (zone: string) => DateTime.local().setZone(zone).isValid;

/**
 * Epoch ms of an iCalendar time. DATE values and floating times are the host's wall clock;
 * a TZID defined by a VTIMEZONE in the object is resolved by ical.js through that definition,
 * and one without a definition (common: servers drop them) as the IANA name it usually is.
 */
function epochMs(time: ICAL.Time, tzid: string | undefined, hostZone: string): number {
  const wall = { year: time.year, month: time.month, day: time.day };
  if (time.isDate) return DateTime.fromObject(wall, { zone: hostZone }).toMillis();
  if (time.zone && time.zone !== ICAL.Timezone.localTimezone) return time.toUnixTime() * 1000;
  const zone = tzid && isZone(tzid) ? tzid : hostZone;
  return DateTime.fromObject({ ...wall, hour: time.hour, minute: time.minute, second: time.second }, { zone }).toMillis();
}

function tzidOf(event: ICAL.Event, name: "dtstart" | "dtend"): string | undefined {
  const property = event.component.getFirstProperty(name) ?? event.component.getFirstProperty("dtstart");
  const tzid = property?.getParameter("tzid");
  return typeof tzid === "string" ? tzid : undefined;
}

/** Transparent (free) and cancelled events do not block time. */
function blocks(event: ICAL.Event): boolean {
  const transp = String(event.component.getFirstPropertyValue("transp") ?? "").toUpperCase();
  const status = String(event.component.getFirstPropertyValue("status") ?? "").toUpperCase();
  return transp !== "TRANSPARENT" && status !== "CANCELLED";
}

type Range = { from: number; to: number; timeZone: string };

/** The busy ranges of one calendar object (all VEVENTs of a UID: the series and its overrides). */
export function busyOfIcs(text: string, range: Range): BusyRange[] {
  const root = new ICAL.Component(ICAL.parse(text));
  const groups = new Map<string, { master?: ICAL.Component; exceptions: ICAL.Component[] }>();
  for (const vevent of root.getAllSubcomponents("vevent")) {
    if (!vevent.hasProperty("dtstart")) continue;
    const uid = String(vevent.getFirstPropertyValue("uid") ?? "");
    const group = groups.get(uid) ?? { exceptions: [] };
    if (vevent.hasProperty("recurrence-id")) group.exceptions.push(vevent);
    else group.master = vevent;
    groups.set(uid, group);
  }

  const out: BusyRange[] = [];
  const add = (item: ICAL.Event, start: ICAL.Time, end: ICAL.Time) => {
    if (!blocks(item)) return;
    const s = epochMs(start, tzidOf(item, "dtstart"), range.timeZone);
    const e = epochMs(end, tzidOf(item, "dtend"), range.timeZone);
    // A zero-length event (DTSTART without DTEND) takes no time (RFC 5545 §3.6.1).
    if (e > s && s < range.to && e > range.from) out.push({ start: s, end: e, eventId: item.uid });
  };

  for (const { master, exceptions } of groups.values()) {
    const overrides = exceptions.map((c) => new ICAL.Event(c));
    if (!master) {
      for (const o of overrides) add(o, o.startDate, o.endDate);
      continue;
    }
    const event = new ICAL.Event(master, { exceptions: overrides, strictExceptions: true });
    if (!event.isRecurring()) {
      add(event, event.startDate, event.endDate);
      continue;
    }
    if (!blocks(event) && overrides.length === 0) continue;
    // ical.js expands RRULE/RDATE minus EXDATE; getOccurrenceDetails swaps in the overrides.
    const seen = new Set<ICAL.Event>();
    const iterator = event.iterator();
    const startTzid = tzidOf(event, "dtstart");
    let count = 0;
    for (let next = iterator.next(); next; next = iterator.next()) {
      if (epochMs(next, startTzid, range.timeZone) >= range.to) break;
      if (++count > MAX_OCCURRENCES) {
        log.warn({ uid: event.uid, occurrences: count }, "caldav: recurrence expansion cut short");
        break;
      }
      const details = event.getOccurrenceDetails(next);
      if (details.item !== event) seen.add(details.item);
      add(details.item, details.startDate, details.endDate);
    }
    // Overrides whose original date lies past the range may have moved into it.
    for (const o of overrides) if (!seen.has(o)) add(o, o.startDate, o.endDate);
  }
  return out;
}
