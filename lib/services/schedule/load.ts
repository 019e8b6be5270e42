import type { Db, Tx } from "@/db";
import { runStatements } from "@/db/client";
import type { EventTypeRow, OverrideInterval, UserRow } from "@/db/schema";
import { dateOfDay, mergeIntervals, ZoneOffsets, type DateOverride, type Interval, type SlotInput, type WeeklyRule } from "@/lib/slots";
import { clampInstant, minutesOf } from "@/lib/time";

// Reads what the slot engine needs for one host and one span of time. The engine itself never
// touches the database; this is its only feeder, for the slots list and for the booking re-check.

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

export type HostSchedule = { weeklyRules: WeeklyRule[]; overrides: DateOverride[]; busy: Interval[] };

// One statement, one round trip: the four reads as JSON arrays, instants as epoch milliseconds
// (floored, as a JavaScript Date of the value would be). $3 and $5 are null for an open end,
// $6 for no booking to ignore.
const SCHEDULE_SQL = `
select
  (select coalesce(json_agg(json_build_array(day_of_week, start_minute, end_minute)), '[]'::json)
     from availability_rules where user_id = $1::text) as rules,
  (select coalesce(json_agg(json_build_array(date::text, intervals)), '[]'::json)
     from availability_overrides
     where user_id = $1::text and date >= $2::text::date and ($3::text is null or date <= $3::text::date)) as overrides,
  (select coalesce(json_agg(json_build_array(floor(extract(epoch from blocked_start) * 1000), floor(extract(epoch from blocked_end) * 1000))), '[]'::json)
     from bookings
     where host_id = $1::text and status <> 'cancelled' and blocked_end > $4::text::timestamptz
       and ($5::text is null or blocked_start < $5::text::timestamptz) and ($6::text is null or id <> $6::text)) as blocked,
  (select coalesce(json_agg(json_build_array(floor(extract(epoch from b.start_time) * 1000), floor(extract(epoch from b.end_time) * 1000))), '[]'::json)
     from busy_intervals b join calendars c on c.id = b.calendar_id
     where b.user_id = $1::text and c.check_conflicts and b.end_time > $4::text::timestamptz
       and ($5::text is null or b.start_time < $5::text::timestamptz)) as busy`;

type ScheduleRow = {
  rules: [number, number, number][];
  overrides: [string, OverrideInterval[]][];
  blocked: [number, number][];
  busy: [number, number][];
};

/**
 * The host's hours, the overrides of the dates around [from, to), and what blocks time there:
 * pending and confirmed bookings (buffers included) and busy time of calendars that check
 * conflicts. `to` open: everything from `from` on. `ignoreBookingId`: the booking being
 * rescheduled does not block its own new slot.
 */
export async function loadHostSchedule(
  db: Db | Tx,
  host: UserRow,
  span: { from: number; to?: number; ignoreBookingId?: string },
): Promise<HostSchedule> {
  const zone = ZoneOffsets.of(host.timezone);
  // Kept inside the instants PostgreSQL reads: a start on 9999-12-31 plus the margin is year 10000.
  const lo = clampInstant(span.from - MARGIN);
  const hi = span.to === undefined ? undefined : clampInstant(span.to + MARGIN);
  const [[row]] = await runStatements(db)<[ScheduleRow[]]>([
    {
      text: SCHEDULE_SQL,
      params: [
        host.id,
        dateOfDay(zone.dayOf(lo)),
        hi === undefined ? null : dateOfDay(zone.dayOf(hi)),
        new Date(lo).toISOString(),
        hi === undefined ? null : new Date(hi).toISOString(),
        span.ignoreBookingId ?? null,
      ],
    },
  ]);
  const { rules, overrides, blocked, busy } = row!;
  return {
    weeklyRules: rules.map(([dayOfWeek, startMinute, endMinute]) => ({ dayOfWeek, startMinute, endMinute })),
    // A closed date has no intervals: the engine reads an empty list as "closed".
    overrides: overrides.map(([date, intervals]) => ({
      date,
      intervals: intervals.map((i) => ({ startMinute: minutesOf(i.startTime), endMinute: minutesOf(i.endTime) })),
    })),
    busy: mergeIntervals([...blocked, ...busy].map(([start, end]) => ({ start: Number(start), end: Number(end) }))),
  };
}

/** Everything the engine needs but `now` and the range, read inside the booking's transaction. */
export async function loadSlotData(
  db: Db | Tx,
  host: UserRow,
  eventType: EventTypeRow,
  span: { from: number; to: number; ignoreBookingId?: string },
): Promise<SlotData> {
  const schedule = await loadHostSchedule(db, host, span);
  return { host: engineHost(host), eventType: engineEventType(eventType), ...schedule };
}
