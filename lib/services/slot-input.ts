import { and, eq, gt, gte, lt, lte, ne } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import {
  availabilityOverrides,
  availabilityRules,
  bookings,
  busyIntervals,
  calendars,
  type EventTypeRow,
  type UserRow,
} from "@/db/schema";
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
  const lo = new Date(clampInstant(span.from - MARGIN));
  const hi = span.to === undefined ? undefined : new Date(clampInstant(span.to + MARGIN));
  const [rules, overrides, blocked, busy] = await Promise.all([
    db
      .select({ dayOfWeek: availabilityRules.dayOfWeek, startMinute: availabilityRules.startMinute, endMinute: availabilityRules.endMinute })
      .from(availabilityRules)
      .where(eq(availabilityRules.userId, host.id)),
    db
      .select({ date: availabilityOverrides.date, intervals: availabilityOverrides.intervals })
      .from(availabilityOverrides)
      .where(
        and(
          eq(availabilityOverrides.userId, host.id),
          gte(availabilityOverrides.date, dateOfDay(zone.dayOf(lo.getTime()))),
          hi ? lte(availabilityOverrides.date, dateOfDay(zone.dayOf(hi.getTime()))) : undefined,
        ),
      ),
    db
      .select({ start: bookings.blockedStart, end: bookings.blockedEnd })
      .from(bookings)
      .where(
        and(
          eq(bookings.hostId, host.id),
          ne(bookings.status, "cancelled"),
          gt(bookings.blockedEnd, lo),
          hi ? lt(bookings.blockedStart, hi) : undefined,
          span.ignoreBookingId ? ne(bookings.id, span.ignoreBookingId) : undefined,
        ),
      ),
    db
      .select({ start: busyIntervals.startTime, end: busyIntervals.endTime })
      .from(busyIntervals)
      .innerJoin(calendars, eq(calendars.id, busyIntervals.calendarId))
      .where(
        and(
          eq(busyIntervals.userId, host.id),
          eq(calendars.checkConflicts, true),
          gt(busyIntervals.endTime, lo),
          hi ? lt(busyIntervals.startTime, hi) : undefined,
        ),
      ),
  ]);
  return {
    weeklyRules: rules,
    // A closed date has no intervals: the engine reads an empty list as "closed".
    overrides: overrides.map((o) => ({
      date: o.date,
      intervals: o.intervals.map((i) => ({ startMinute: minutesOf(i.startTime), endMinute: minutesOf(i.endTime) })),
    })),
    busy: mergeIntervals([...blocked, ...busy].map((b) => ({ start: b.start.getTime(), end: b.end.getTime() }))),
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
