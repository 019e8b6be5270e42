import "server-only";
import type { Db, Tx } from "@/db";
import { runStatements } from "@/db/client";
import type { EventTypeRow, OverrideInterval, UserRow } from "@/db/schema";
import { publicHolidaysBetween, type HolidayPlace } from "@/lib/holidays";
import { dateOfDay, mergeIntervals, type DateOverride, type Interval, type SlotInput, type TimeOff, type WeeklyRule } from "@/lib/slots";
import { seatedStarts } from "@/lib/slots/seats";
import { timeOffOf } from "@/lib/slots/time-off";
import type { SourcedInterval } from "@/lib/slots/explain";
import { clampInstant, minutesOf } from "@/lib/time/instants";

// Reads what the slot engine needs for hosts and a span of time. The engine itself never touches
// the database; this is its only feeder: the slots list, the booking's re-check and the explainer.

const DAY = 86_400_000;
// Buffers reach at most 240 minutes beyond a slot; a day on each side covers them and any zone.
const MARGIN = DAY;
const WEEK = 7 * DAY;
// An open span (the slot cache reads everything from now on) reads holidays this far ahead:
// beyond any booking window.
const OPEN_SPAN_YEARS = 3;

/**
 * Which of the host's schedules an event type's hours come from: a personal event type's own
 * `scheduleId`, else (none set, or a team event type: each host's own hours, decisions §15) the
 * host's default schedule (null).
 */
export function scheduleIdFor(host: UserRow, eventType: EventTypeRow): string | null {
  return eventType.userId === host.id ? eventType.scheduleId : null;
}

/**
 * The one place that decides the engine's host facts for an event type: the zone its hours are
 * read in (the schedule's), and the event type's own notice and window where it sets them, else
 * the host's (decisions §16).
 */
export function engineHostFor(host: UserRow, eventType: EventTypeRow, schedule: Pick<HostSchedule, "timeZone">): SlotInput["host"] {
  return {
    timeZone: schedule.timeZone,
    minNoticeHours: eventType.minNoticeHours ?? host.minNoticeHours,
    maxAdvanceDays: eventType.maxAdvanceDays ?? host.maxAdvanceDays,
  };
}

export function engineEventType(eventType: EventTypeRow): SlotInput["eventType"] {
  return {
    durationMinutes: eventType.durationMinutes,
    bufferBeforeMinutes: eventType.bufferBeforeMinutes,
    bufferAfterMinutes: eventType.bufferAfterMinutes,
    slotIntervalMinutes: eventType.slotIntervalMinutes,
  };
}

/**
 * A host's hours and what blocks their time: `blocks` names each blocked range's source (a booking
 * by id, a calendar by id and name: what the explainer reports); `busy` is the same ranges merged,
 * what the engine reads.
 */
export type HostSchedule = {
  /** The schedule read (null: the host has none, so no hours) and the zone its hours are read in. */
  scheduleId: string | null;
  timeZone: string;
  weeklyRules: WeeklyRule[];
  overrides: DateOverride[];
  busy: Interval[];
  blocks: SourcedInterval[];
  /**
   * Busy time of the host's calendars not marked `checkConflicts`: it blocks only the event types
   * whose `conflictCalendars` name them (decisions §21; blocksFor).
   */
  uncheckedBusy: SourcedInterval[];
  /** The host's days away and public holidays (not those worked anyway), in the host's own zone. */
  timeOff: TimeOff[];
  /** Where the host's public holidays come from (null: none count), so a reader can name them in another language. */
  holidayPlace: HolidayPlace | null;
  /** The starts of the host's non-cancelled bookings by event type, a week either side of the span: what limits count. */
  booked: { eventTypeId: string; start: number }[];
};

/** The seat key of a seated start (bookings.seat_key): the event type and the start, shared by its guests. */
export function seatKeyOf(eventTypeId: string, start: number): string {
  return `${eventTypeId}@${new Date(start).toISOString()}`;
}

/**
 * Which of a host's calendars block an event type (decisions §21): those its `conflictCalendars`
 * names, or (null) every calendar marked `checkConflicts`. The one reading of the choice: slots,
 * explain (blocksFor) and the check at booking ask it.
 */
export function conflictCalendarsOf(eventType: Pick<EventTypeRow, "conflictCalendars">): ReadonlySet<string> | null {
  const chosen = eventType.conflictCalendars;
  return Array.isArray(chosen) ? new Set(chosen.filter((id) => typeof id === "string")) : null;
}

/** Whether a calendar's busy time blocks the event type: named by its choice, or (no choice) marked `checkConflicts`. */
export function calendarCounts(chosen: ReadonlySet<string> | null, calendar: { id: string; checkConflicts: boolean }): boolean {
  return chosen === null ? calendar.checkConflicts : chosen.has(calendar.id);
}

/**
 * What blocks a host's time for an event type: the calendars it counts (conflictCalendarsOf,
 * decisions §21), and, for a seated one (decisions §19), its own seats taken out of the blocks and
 * grouped by start (the engine's `seats`). An event type with neither reads the schedule as it is.
 */
export function blocksFor(eventType: EventTypeRow, schedule: Pick<HostSchedule, "blocks" | "busy" | "uncheckedBusy">): { blocks: SourcedInterval[]; busy: Interval[]; seats?: SlotInput["seats"] } {
  const chosen = conflictCalendarsOf(eventType);
  if (!eventType.seats && chosen === null) return { blocks: schedule.blocks, busy: schedule.busy };
  const prefix = `${eventType.id}@`;
  const own = (b: SourcedInterval) => eventType.seats !== null && b.kind === "booking" && b.seatKey?.startsWith(prefix) === true;
  const counted =
    chosen === null
      ? schedule.blocks
      : [...schedule.blocks, ...schedule.uncheckedBusy].filter((b) => b.kind === "booking" || chosen.has(b.calendarId)).sort((a, b) => a.start - b.start);
  const blocks = counted.filter((b) => !own(b));
  // Nothing taken out of the schedule's own blocks: its merged busy time stands.
  const busy = chosen === null && blocks.length === schedule.blocks.length ? schedule.busy : mergeIntervals(blocks.map(({ start, end }) => ({ start, end })));
  if (!eventType.seats) return { blocks, busy };
  const seats = counted.filter(own).map((b) => ({ start: Date.parse(b.kind === "booking" ? b.seatKey!.slice(prefix.length) : ""), blocked: { start: b.start, end: b.end }, ...(b.kind === "booking" ? { bookingId: b.bookingId } : {}) }));
  return { blocks, busy, seats: { max: eventType.seats.max, starts: seatedStarts(seats) } };
}

/**
 * The event type's limits with this host's bookings of it (undefined: it has none). A seated
 * start counts once, however many guests it holds (decisions §19).
 */
export function limitsFor(eventType: EventTypeRow, schedule: Pick<HostSchedule, "booked">): SlotInput["limits"] {
  const { perDay, perWeek } = eventType.limits;
  if (perDay === undefined && perWeek === undefined) return undefined;
  const mine = schedule.booked.filter((b) => b.eventTypeId === eventType.id).map((b) => b.start);
  const booked = eventType.seats ? [...new Set(mine)] : mine;
  return { ...(perDay !== undefined ? { perDay } : {}), ...(perWeek !== undefined ? { perWeek } : {}), booked };
}

/** Everything the engine reads but the range, for one host of an event type (explain swaps in the sourced blocks). */
export function engineInputFor(host: UserRow, eventType: EventTypeRow, schedule: HostSchedule, now: number): Omit<SlotInput, "range"> {
  const limits = limitsFor(eventType, schedule);
  const { busy, seats } = blocksFor(eventType, schedule);
  return {
    now,
    host: engineHostFor(host, eventType, schedule),
    eventType: engineEventType(eventType),
    weeklyRules: schedule.weeklyRules,
    overrides: schedule.overrides,
    busy,
    ...(limits ? { limits } : {}),
    ...(seats ? { seats } : {}),
    ...(schedule.timeOff.length > 0 ? { timeOff: schedule.timeOff } : {}),
  };
}

// The one reader of what blocks a host's time: for slot lists, the booking's re-check and the
// explainer alike, for any number of hosts in one statement and one round trip (one row per host,
// the reads as JSON arrays, instants as epoch milliseconds floored as a JavaScript Date of the
// value would be). $1 is a JSON array of [host id, schedule id or null for the host's default];
// $3 and $5 are null for an open end, $6 for no booking to ignore; $7 and $8 widen the bookings
// read by a week either side, for the limits' ISO weeks. Every calendar's busy time is read, with
// whether it is marked checkConflicts: an event type may count others (decisions §21). The host's
// time off is read by its dates ($2, $3), the holidays' place from the host's row.
// The schedule is only ever the host's own (s.user_id): another host's schedule id reads nothing.
// The bookings a host hosts (personal and team, booking_hosts) and their busy intervals are found
// by where they end (the partial indexes on (user, blocked_end) and (user, end_time)), so a
// host's past (beyond a week) never costs a read.
const SCHEDULE_SQL = `
select
  h.host_id, s.id as schedule_id, s.timezone, u.holiday_country, u.holiday_region, u.holiday_working_on,
  (select coalesce(json_agg(json_build_array(o.id, o.start_date::text, o.end_date::text)), '[]'::json)
     from out_of_office o
     where o.user_id = h.host_id and o.end_date >= $2::text::date and ($3::text is null or o.start_date <= $3::text::date)) as away,
  (select coalesce(json_agg(json_build_array(day_of_week, start_minute, end_minute)), '[]'::json)
     from availability_rules where schedule_id = s.id) as rules,
  (select coalesce(json_agg(json_build_array(date::text, intervals)), '[]'::json)
     from availability_overrides
     where schedule_id = s.id and date >= $2::text::date and ($3::text is null or date <= $3::text::date)) as overrides,
  (select coalesce(json_agg(json_build_array(floor(extract(epoch from bh.blocked_start) * 1000), floor(extract(epoch from bh.blocked_end) * 1000),
            bh.booking_id, b.event_type_id, floor(extract(epoch from b.start_time) * 1000), bh.seat_key)), '[]'::json)
     from booking_hosts bh join bookings b on b.id = bh.booking_id
     where bh.user_id = h.host_id and not bh.cancelled and bh.blocked_end > $7::text::timestamptz
       and ($8::text is null or bh.blocked_start < $8::text::timestamptz) and ($6::text is null or bh.booking_id <> $6::text)) as blocked,
  (select coalesce(json_agg(json_build_array(floor(extract(epoch from b.start_time) * 1000), floor(extract(epoch from b.end_time) * 1000), c.id, c.name,
            floor(extract(epoch from cc.busy_as_of) * 1000), c.check_conflicts)), '[]'::json)
     from busy_intervals b join calendars c on c.id = b.calendar_id join calendar_connections cc on cc.id = c.connection_id
     where b.user_id = h.host_id and b.end_time > $4::text::timestamptz
       and ($5::text is null or b.start_time < $5::text::timestamptz)) as busy
from json_array_elements($1::text::json) as e(v)
cross join lateral (select e.v->>0 as host_id, e.v->>1 as schedule_id) as h
join users u on u.id = h.host_id
left join schedules s on s.user_id = h.host_id and (case when h.schedule_id is null then s.is_default else s.id = h.schedule_id end)`;

type ScheduleRow = {
  host_id: string;
  schedule_id: string | null;
  timezone: string | null;
  rules: [number, number, number][];
  overrides: [string, OverrideInterval[]][];
  blocked: [number, number, string, string, number, string | null][];
  busy: [number, number, string, string, number | null, boolean][];
  holiday_country: string | null;
  holiday_region: string | null;
  holiday_working_on: string[];
  away: [string, string, string][];
};

export type ScheduleSpan = { from: number; to?: number; ignoreBookingId?: string };

/** Which schedule to read for a host: an id of theirs, or null for their default. */
export type ScheduleRequest = { host: UserRow; scheduleId: string | null };

/**
 * The hours of each host (by id) from the schedule asked for, the overrides of the dates around
 * [from, to), and what blocks time there: pending and confirmed bookings (buffers included) and
 * busy time of calendars that check conflicts. `to` open: everything from `from` on.
 * `ignoreBookingId`: the booking being rescheduled neither blocks its own new slot nor counts
 * against a limit. One host or several cost one round trip.
 */
export async function loadSchedules(db: Db | Tx, requests: ScheduleRequest[], span: ScheduleSpan): Promise<Map<string, HostSchedule>> {
  // Kept inside the instants PostgreSQL reads: a start on 9999-12-31 plus the margin is year 10000.
  const lo = clampInstant(span.from - MARGIN);
  const hi = span.to === undefined ? undefined : clampInstant(span.to + MARGIN);
  // The override dates: a day either side of the UTC dates covers every zone's local dates.
  const utcDate = (at: number, shift: number) => dateOfDay(Math.floor(at / DAY) + shift);
  const iso = (at: number) => new Date(at).toISOString();
  const [[...rows]] = await runStatements(db)<[ScheduleRow[]]>([
    {
      text: SCHEDULE_SQL,
      params: [
        JSON.stringify(requests.map((r) => [r.host.id, r.scheduleId])),
        utcDate(lo, -1),
        hi === undefined ? null : utcDate(hi, 1),
        iso(lo),
        hi === undefined ? null : iso(hi),
        span.ignoreBookingId ?? null,
        iso(clampInstant(lo - WEEK)),
        hi === undefined ? null : iso(clampInstant(hi + WEEK)),
      ],
    },
  ]);
  const zoneOf = new Map(requests.map((r) => [r.host.id, r.host.timezone]));
  const languageOf = new Map(requests.map((r) => [r.host.id, r.host.language]));
  const schedules = new Map<string, HostSchedule>();
  // The dates time off and holidays are read for: those the span's instants fall on anywhere.
  const firstDate = utcDate(lo, -1);
  const lastDate = hi === undefined ? utcDate(lo + OPEN_SPAN_YEARS * 365 * DAY, 1) : utcDate(hi, 1);
  for (const row of rows) {
    const { host_id, schedule_id, timezone, rules, overrides, blocked, busy } = row;
    const calendarBusy = busy.map(([start, end, calendarId, calendarName, busyAsOf, checkConflicts]) => ({
      checkConflicts,
      block: { kind: "calendar", calendarId, calendarName, busyAsOf: busyAsOf === null ? null : Number(busyAsOf), start: Number(start), end: Number(end) } satisfies SourcedInterval as SourcedInterval,
    }));
    const blocks: SourcedInterval[] = [
      ...blocked.map(([start, end, bookingId, , , seatKey]): SourcedInterval => ({ kind: "booking", bookingId, seatKey, start: Number(start), end: Number(end) })),
      ...calendarBusy.filter((c) => c.checkConflicts).map((c) => c.block),
    ];
    const holidayPlace = row.holiday_country ? { country: row.holiday_country, region: row.holiday_region } : null;
    const hostZone = zoneOf.get(host_id)!;
    schedules.set(host_id, {
      scheduleId: schedule_id,
      // The default schedule's zone is the host's own (null in the row).
      timeZone: timezone ?? hostZone,
      weeklyRules: rules.map(([dayOfWeek, startMinute, endMinute]) => ({ dayOfWeek, startMinute, endMinute })),
      // A closed date has no intervals: the engine reads an empty list as "closed".
      overrides: overrides.map(([date, intervals]) => ({
        date,
        intervals: intervals.map((i) => ({ startMinute: minutesOf(i.startTime), endMinute: minutesOf(i.endTime) })),
      })),
      busy: mergeIntervals(blocks.map(({ start, end }) => ({ start, end }))),
      blocks,
      uncheckedBusy: calendarBusy.filter((c) => !c.checkConflicts).map((c) => c.block),
      timeOff: timeOffOf(
        hostZone,
        row.away.map(([id, startDate, endDate]) => ({ id, startDate, endDate })),
        holidayPlace ? publicHolidaysBetween(holidayPlace, firstDate, lastDate, languageOf.get(host_id)) : [],
        row.holiday_working_on,
      ),
      holidayPlace,
      booked: blocked.map(([, , , eventTypeId, start]) => ({ eventTypeId, start: Number(start) })),
    });
  }
  return schedules;
}

/** The schedules an event type's hosts' slots are made of (scheduleIdFor), in one round trip. */
export function loadHostSchedules(db: Db | Tx, hosts: UserRow[], span: ScheduleSpan, eventType?: EventTypeRow): Promise<Map<string, HostSchedule>> {
  return loadSchedules(
    db,
    hosts.map((host) => ({ host, scheduleId: eventType ? scheduleIdFor(host, eventType) : null })),
    span,
  );
}
