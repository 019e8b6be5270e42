import "server-only";
import { DateTime } from "luxon";
import type { Db } from "@/db";
import type { EventTypeRow, TeamMemberRow, UserRow } from "@/db/schema";
import { explainSlot, type ExplainInput, type Reason } from "@/lib/slots/explain";
import { isoUtc, isoUtcOrNull, timeOf } from "@/lib/time/instants";
import { getEventType } from "@/lib/services/event-types/manage";
import { hostOwner, teamOwner, type EventTypeOwner } from "@/lib/services/event-types/owner";
import { activeHostsOf } from "@/lib/services/teams/hosts";
import { bookableOf, type Bookable } from "./bookable";
import { publicHolidaysOf } from "@/lib/holidays";
import { engineInputFor, loadSchedules, blocksFor, type HostSchedule } from "@/lib/services/host-time/load";
import { staleCalendarNotes, type StaleCalendarNote } from "@/lib/services/calendars/conflict-calendars";
import { getConfig } from "@/lib/config";
import { PROVIDER_BRANDS } from "@/lib/schemas/calendar-providers";

const DAY = 86_400_000;
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** `busy`: a teammate's conflict as a member who is not an owner sees it (no booking or calendar named). */
export type ExplainedReason = { code: Reason["code"] | "busy"; message: string } & Record<string, unknown>;

/** Whose reasons they are: the caller's own ("You", "your") or a team member's ("Ann", "Ann's"). */
type Voice = { subject: string; possessive: string; Possessive: string; asks: string; has: string };
const SECOND_PERSON: Voice = { subject: "You", possessive: "your", Possessive: "Your", asks: "you ask", has: "You have" };
function thirdPerson(name: string): Voice {
  return { subject: name, possessive: `${name}’s`, Possessive: `${name}’s`, asks: `${name} asks`, has: `${name} has` };
}

const relative = new Intl.RelativeTimeFormat("en-US", { numeric: "always" });

/** "checked 2 minutes ago": how old the busy data behind a calendar conflict is. */
function checkedAgo(busyAsOf: number | null, now: number): string {
  if (busyAsOf === null) return "not checked with the calendar since it was stored";
  const seconds = Math.max(0, Math.floor((now - busyAsOf) / 1000));
  if (seconds < 1) return "checked just now";
  if (seconds < 60) return `checked ${relative.format(-seconds, "second")}`;
  if (seconds < 3600) return `checked ${relative.format(-Math.floor(seconds / 60), "minute")}`;
  if (seconds < 48 * 3600) return `checked ${relative.format(-Math.floor(seconds / 3600), "hour")}`;
  return `checked ${relative.format(-Math.floor(seconds / 86_400), "day")}`;
}

/** A reason in words, in the host's zone, with its data as the API shows it (instants as ISO UTC). */
function present(reason: Reason, zone: string, now: number, v: Voice = SECOND_PERSON): ExplainedReason {
  const local = (ms: number) => DateTime.fromMillis(ms, { zone, locale: "en-US" }).toFormat("cccc, LLLL d, yyyy, HH:mm");
  const day = (date: string) => DateTime.fromISO(date, { locale: "en-US" }).toFormat("cccc, LLLL d, yyyy");
  const hours = (list: { startMinute: number; endMinute: number }[]) => list.map((h) => `${timeOf(h.startMinute)}–${timeOf(h.endMinute)}`).join(", ");
  switch (reason.code) {
    case "event_type_inactive":
      return { ...reason, message: "This event type is turned off: guests cannot book it at all." };
    case "closed_by_override":
      return { ...reason, message: `${v.subject} closed ${reason.date} with a date override.` };
    case "outside_hours":
      return {
        ...reason,
        hours: reason.hours.map((h) => ({ startTime: timeOf(h.startMinute), endTime: timeOf(h.endMinute) })),
        message:
          reason.hours.length === 0
            ? `${v.has} no hours on ${WEEKDAYS[reason.weekday]}s.`
            : `The meeting does not fit inside ${v.possessive} hours on ${reason.date} (${hours(reason.hours)}).`,
      };
    case "dst_gap":
      return { ...reason, wallTime: timeOf(reason.wallMinute), message: `${timeOf(reason.wallMinute)} does not exist on ${reason.date}: the clocks skip it for daylight saving time.` };
    case "not_on_grid":
      return {
        code: reason.code,
        stepMinutes: reason.stepMinutes,
        nearest: reason.nearest.map((ms) => isoUtc(new Date(ms))),
        message: `Start times are every ${reason.stepMinutes} minutes from the start of ${v.possessive} hours.${
          reason.nearest.length ? ` The nearest open ones: ${reason.nearest.map(local).join(" and ")}.` : ""
        }`,
      };
    case "min_notice":
      return { code: reason.code, minNoticeHours: reason.minNoticeHours, earliest: isoUtc(new Date(reason.earliest)), message: `Too soon: ${v.asks} for ${reason.minNoticeHours} hours of notice, so the earliest start is ${local(reason.earliest)}.` };
    case "beyond_window":
      return { ...reason, message: `Too far ahead: guests may book up to ${reason.maxAdvanceDays} days ahead, until ${reason.lastDate}.` };
    case "out_of_office":
      return { ...reason, message: `${v.subject} ${v.subject === "You" ? "are" : "is"} away from ${day(reason.startDate)} to ${day(reason.endDate)} (time off).` };
    case "holiday":
      return { ...reason, message: `${day(reason.date)} is a public holiday (${reason.name}), a day off unless marked as worked on the Availability page.` };
    case "limit_reached":
      return {
        ...reason,
        message:
          `Limit reached: this event type takes at most ${reason.limit} ${reason.limit === 1 ? "booking" : "bookings"} ${reason.period === "day" ? "a day" : "a week"}. ` +
          `${v.has} ${reason.count} ${reason.period === "day" ? `on ${reason.from}` : `in the week of ${reason.from} to ${reason.to}`}.`,
      };
    case "booking_conflict":
      return {
        code: reason.code,
        bookingId: reason.bookingId,
        start: isoUtc(new Date(reason.start)),
        end: isoUtc(new Date(reason.end)),
        message: `It overlaps another booking (${local(reason.start)} to ${local(reason.end)}, buffers included).`,
      };
    case "seats_full":
      return { ...reason, message: `Every seat is taken: ${reason.taken} of ${reason.max} guests have booked this start.` };
    case "calendar_conflict":
      return {
        code: reason.code,
        calendarId: reason.calendarId,
        calendarName: reason.calendarName,
        busyAsOf: reason.busyAsOf === null ? null : isoUtc(new Date(reason.busyAsOf)),
        start: isoUtc(new Date(reason.start)),
        end: isoUtc(new Date(reason.end)),
        message: `${v.Possessive} calendar “${reason.calendarName}” is busy from ${local(reason.start)} to ${local(reason.end)} (${checkedAgo(reason.busyAsOf, now)}).`,
      };
  }
}

/**
 * A teammate's reason as a member who is not an owner sees it (decisions §15): a conflict says
 * only that they are busy, and when; which booking or calendar it is stays theirs (and the
 * owners'). Two conflicts over the same time read as one.
 */
function asSeenByMember(reasons: ExplainedReason[], name: string, zone: string): ExplainedReason[] {
  const local = (iso: string) => DateTime.fromISO(iso, { zone, locale: "en-US" }).toFormat("cccc, LLLL d, yyyy, HH:mm");
  const seen = new Set<string>();
  const out: ExplainedReason[] = [];
  for (const reason of reasons) {
    if (reason.code !== "booking_conflict" && reason.code !== "calendar_conflict") {
      out.push(reason);
      continue;
    }
    const { start, end } = reason as unknown as { start: string; end: string };
    if (seen.has(`${start}/${end}`)) continue;
    seen.add(`${start}/${end}`);
    out.push({ code: "busy", start, end, message: `${name} is busy from ${local(start)} to ${local(end)}.` });
  }
  return out;
}

/** The engine's input for one host, with the blocked ranges that name their source. */
function explainInput(host: UserRow, eventType: EventTypeRow, schedule: HostSchedule, now: number): ExplainInput {
  const { blocks } = blocksFor(eventType, schedule);
  return { ...engineInputFor(host, eventType, schedule, now), busy: blocks, isActive: eventType.isActive };
}

/** One host's answer: whether they could take the start alone, every reason why not, and the zone to word them in. */
type HostExplanation = { host: UserRow; zone: string; bookable: boolean; reasons: Reason[] };

/**
 * The one explainer (a personal event type is a team of one, issue 38): for each host of the
 * bookable, whether they could take `start` alone and why not, from their schedules around it
 * (one round trip). How the answer is worded, and for whom, is the callers' part.
 */
async function explainBookableStart(db: Db, bookable: Bookable, start: number, now: number, language: string | undefined): Promise<HostExplanation[]> {
  const schedules = await loadSchedules(db, bookable.hosts, { from: start - DAY, to: start + DAY });
  return bookable.hosts.map(({ host }) => {
    const schedule = schedules.get(host.id)!;
    const { bookable: free, reasons } = explainSlot(explainInput(host, bookable.eventType, schedule, now), start);
    return { host, zone: schedule.timeZone, bookable: free, reasons: reasons.map((r) => holidayNamedIn(r, schedule, language)) };
  });
}

/** A holiday's name in the asker's language where the holiday library has it (the loader names it in the host's). */
function holidayNamedIn(reason: Reason, schedule: HostSchedule, language: string | undefined): Reason {
  if (reason.code !== "holiday" || !schedule.holidayPlace || !language) return reason;
  const named = publicHolidaysOf(schedule.holidayPlace, Number(reason.date.slice(0, 4)), language).find((h) => h.date === reason.date);
  return named ? { ...reason, name: named.name } : reason;
}

/**
 * A connection whose busy data may be old, beside the reasons (decisions §21): the host sees
 * "busy data from Work is old since …" even when the start looks bookable.
 */
function presentNote(note: StaleCalendarNote, zone: string, now: number, possessive = "your") {
  const local = (ms: number) => DateTime.fromMillis(ms, { zone, locale: "en-US" }).toFormat("cccc, LLLL d, yyyy, HH:mm");
  const which = `${possessive} ${note.name} calendar (${PROVIDER_BRANDS[note.provider]}, ${note.email})`;
  const asOf = note.busyAsOf ? `its busy data is as of ${local(note.busyAsOf.getTime())}` : "no busy data has been read from it yet";
  const message =
    note.status === "connected"
      ? `Busy data from ${which} was ${checkedAgo(note.busyAsOf?.getTime() ?? null, now)}: a booking asks the calendar again before it is made.`
      : `Busy data from ${which} is old: it stopped syncing${note.brokenSince ? ` on ${local(note.brokenSince.getTime())}` : ""} and ${asOf}. Guests may book over events added since; reconnect it on the Calendars page.`;
  return {
    connectionId: note.connectionId,
    provider: note.provider,
    email: note.email,
    status: note.status,
    brokenSince: isoUtcOrNull(note.brokenSince),
    busyAsOf: isoUtcOrNull(note.busyAsOf),
    message,
  };
}

/** GET /me/event-types/{id}/explain: why `start` is, or is not, a bookable time of the host's own event type. */
export async function explainEventTypeSlot(db: Db, host: UserRow, eventTypeId: string, start: number, now: number, language?: string) {
  const { bookable } = await ownedBookable(db, hostOwner(host), eventTypeId);
  const [[own], notes] = await Promise.all([
    explainBookableStart(db, bookable, start, now, language),
    staleCalendarNotes(db, host.id, bookable.eventType, now - getConfig().calendarFreshS * 1000),
  ]);
  return {
    startTime: isoUtc(new Date(start)),
    bookable: own!.bookable,
    reasons: own!.reasons.map((r) => present(r, own!.zone, now)),
    // Only where there is something to say: a host whose calendars are fresh gets the answer as before.
    ...(notes.length > 0 ? { calendars: notes.map((n) => presentNote(n, own!.zone, now)) } : {}),
  };
}

/** One of the owner's event types as a bookable, with the asker's role (404 for anyone else's). */
async function ownedBookable(db: Db, owner: EventTypeOwner, eventTypeId: string) {
  const { eventType, team, role } = await getEventType(db, owner, eventTypeId);
  const hosts = team ? await activeHostsOf(db, eventType) : [owner.user];
  return { bookable: bookableOf(eventType, hosts, team), role };
}

/**
 * GET /me/teams/{teamId}/event-types/{id}/explain (decisions §15): for each host of a team event
 * type, whether they could take `start` alone and every reason why not, in their own zone; the
 * team's answer is any host (round robin) or every host (collective). For the team's active members.
 */
export async function explainTeamEventTypeSlot(db: Db, user: UserRow, teamId: string, eventTypeId: string, start: number, now: number, language?: string) {
  const { bookable, role } = await ownedBookable(db, teamOwner(user, teamId), eventTypeId);
  // A host's calendars are their own: noted for themselves, and for the team's owners (as their conflicts are).
  const freshSince = now - getConfig().calendarFreshS * 1000;
  const [explained, notes] = await Promise.all([
    explainBookableStart(db, bookable, start, now, language),
    Promise.all(bookable.hosts.map(({ host }) => (host.id === user.id || role === "owner" ? staleCalendarNotes(db, host.id, bookable.eventType, freshSince) : []))),
  ]);
  const perHost = explained.map((h, i) => {
    const shown = asShownTo(user, role, h, now);
    const voice = h.host.id === user.id ? "your" : `${h.host.fullName}’s`;
    return notes[i]!.length > 0 ? { ...shown, calendars: notes[i]!.map((n) => presentNote(n, h.zone, now, voice)) } : shown;
  });
  const schedulingType = bookable.eventType.schedulingType!;
  const free = perHost.length > 0 && (schedulingType === "round_robin" ? perHost.some((h) => h.bookable) : perHost.every((h) => h.bookable));
  return { startTime: isoUtc(new Date(start)), schedulingType, bookable: free, hosts: perHost };
}

/** A host's answer in a team's explanation: in the asker's words for themselves, a teammate's name for others, conflicts hidden from members who are not owners. */
function asShownTo(user: UserRow, role: TeamMemberRow["role"], { host, zone, bookable, reasons }: HostExplanation, now: number) {
  const voice = host.id === user.id ? SECOND_PERSON : thirdPerson(host.fullName);
  const presented = reasons.map((r) => present(r, zone, now, voice));
  const shown = host.id === user.id || role === "owner" ? presented : asSeenByMember(presented, host.fullName, zone);
  return { userId: host.id, username: host.username, fullName: host.fullName, bookable, reasons: shown };
}
