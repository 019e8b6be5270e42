import "server-only";
import type { Db, Tx } from "@/db";
import { runStatements } from "@/db/client";
import type { EventTypeRow, OverrideInterval, UserRow } from "@/db/schema";
import { dateOfDay, mergeIntervals, ZoneOffsets, type DateOverride, type Interval, type SlotInput, type WeeklyRule } from "@/lib/slots";
import type { SourcedInterval } from "@/lib/slots/explain";
import { clampInstant, minutesOf } from "@/lib/time/instants";

// Reads what the slot engine needs for hosts and a span of time. The engine itself never touches
// the database; this is its only feeder: the slots list, the booking's re-check and the explainer.

const DAY = 86_400_000;
// Buffers reach at most 240 minutes beyond a slot; a day on each side covers them and any zone.
const MARGIN = DAY;

export type SlotData = Omit<SlotInput, "now" | "range">;

export function engineHost(host: UserRow): SlotInput["host"] {
  return { timeZone: host.timezone, minNoticeHours: host.minNoticeHours, maxAdvanceDays: host.maxAdvanceDays };
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
export type HostSchedule = { weeklyRules: WeeklyRule[]; overrides: DateOverride[]; busy: Interval[]; blocks: SourcedInterval[] };

// The one reader of what blocks a host's time: for slot lists, the booking's re-check and the
// explainer alike, for any number of hosts in one statement and one round trip (one row per host,
// the four reads as JSON arrays, instants as epoch milliseconds floored as a JavaScript Date of
// the value would be). $1 is the hosts' ids as a JSON array; $3 and $5 are null for an open end,
// $6 for no booking to ignore.
// The bookings a host hosts (personal and team, booking_hosts) and their busy intervals are found
// by where they end (the partial indexes on (user, blocked_end) and (user, end_time)), so a
// host's past never costs a read.
const SCHEDULE_SQL = `
select
  h.id as host_id,
  (select coalesce(json_agg(json_build_array(day_of_week, start_minute, end_minute)), '[]'::json)
     from availability_rules where user_id = h.id) as rules,
  (select coalesce(json_agg(json_build_array(date::text, intervals)), '[]'::json)
     from availability_overrides
     where user_id = h.id and date >= $2::text::date and ($3::text is null or date <= $3::text::date)) as overrides,
  (select coalesce(json_agg(json_build_array(floor(extract(epoch from blocked_start) * 1000), floor(extract(epoch from blocked_end) * 1000), booking_id)), '[]'::json)
     from booking_hosts
     where user_id = h.id and not cancelled and blocked_end > $4::text::timestamptz
       and ($5::text is null or blocked_start < $5::text::timestamptz) and ($6::text is null or booking_id <> $6::text)) as blocked,
  (select coalesce(json_agg(json_build_array(floor(extract(epoch from b.start_time) * 1000), floor(extract(epoch from b.end_time) * 1000), c.id, c.name)), '[]'::json)
     from busy_intervals b join calendars c on c.id = b.calendar_id
     where b.user_id = h.id and c.check_conflicts and b.end_time > $4::text::timestamptz
       and ($5::text is null or b.start_time < $5::text::timestamptz)) as busy
from json_array_elements_text($1::text::json) as h(id)`;

type ScheduleRow = {
  host_id: string;
  rules: [number, number, number][];
  overrides: [string, OverrideInterval[]][];
  blocked: [number, number, string][];
  busy: [number, number, string, string][];
};

export type ScheduleSpan = { from: number; to?: number; ignoreBookingId?: string };

/**
 * The hours of each host (by id), the overrides of the dates around [from, to), and what blocks
 * time there: pending and confirmed bookings (buffers included) and busy time of calendars that
 * check conflicts. `to` open: everything from `from` on. `ignoreBookingId`: the booking being
 * rescheduled does not block its own new slot. The dates of the overrides are read in each host's
 * own zone; one host or several cost one round trip.
 */
export async function loadHostSchedules(db: Db | Tx, hosts: UserRow[], span: ScheduleSpan): Promise<Map<string, HostSchedule>> {
  // Kept inside the instants PostgreSQL reads: a start on 9999-12-31 plus the margin is year 10000.
  const lo = clampInstant(span.from - MARGIN);
  const hi = span.to === undefined ? undefined : clampInstant(span.to + MARGIN);
  // The override dates: from the earliest local date of `lo` in any host's zone to the latest of `hi`.
  const days = (at: number) => hosts.map((h) => dateOfDay(ZoneOffsets.of(h.timezone).dayOf(at))).sort();
  const [[...rows]] = await runStatements(db)<[ScheduleRow[]]>([
    {
      text: SCHEDULE_SQL,
      params: [
        JSON.stringify(hosts.map((h) => h.id)),
        days(lo)[0] ?? null,
        hi === undefined ? null : (days(hi).at(-1) ?? null),
        new Date(lo).toISOString(),
        hi === undefined ? null : new Date(hi).toISOString(),
        span.ignoreBookingId ?? null,
      ],
    },
  ]);
  const schedules = new Map<string, HostSchedule>();
  for (const { host_id, rules, overrides, blocked, busy } of rows) {
    const blocks: SourcedInterval[] = [
      ...blocked.map(([start, end, bookingId]): SourcedInterval => ({ kind: "booking", bookingId, start: Number(start), end: Number(end) })),
      ...busy.map(([start, end, calendarId, calendarName]): SourcedInterval => ({ kind: "calendar", calendarId, calendarName, start: Number(start), end: Number(end) })),
    ];
    schedules.set(host_id, {
      weeklyRules: rules.map(([dayOfWeek, startMinute, endMinute]) => ({ dayOfWeek, startMinute, endMinute })),
      // A closed date has no intervals: the engine reads an empty list as "closed".
      overrides: overrides.map(([date, intervals]) => ({
        date,
        intervals: intervals.map((i) => ({ startMinute: minutesOf(i.startTime), endMinute: minutesOf(i.endTime) })),
      })),
      busy: mergeIntervals(blocks.map(({ start, end }) => ({ start, end }))),
      blocks,
    });
  }
  return schedules;
}

/** One host's schedule (loadHostSchedules for one). */
export async function loadHostSchedule(db: Db | Tx, host: UserRow, span: ScheduleSpan): Promise<HostSchedule> {
  return (await loadHostSchedules(db, [host], span)).get(host.id)!;
}

/** Everything the engine needs but `now` and the range, read inside the booking's transaction. */
export async function loadSlotData(
  db: Db | Tx,
  host: UserRow,
  eventType: EventTypeRow,
  span: { from: number; to: number; ignoreBookingId?: string },
): Promise<SlotData> {
  const { weeklyRules, overrides, busy } = await loadHostSchedule(db, host, span);
  return { host: engineHost(host), eventType: engineEventType(eventType), weeklyRules, overrides, busy };
}
