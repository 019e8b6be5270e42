import { and, eq, gt, gte, lt, lte, ne } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import {
  availabilityOverrides,
  availabilityRules,
  bookings,
  busyIntervals,
  calendars,
  eventTypes,
  users,
  type EventTypeRow,
  type UserRow,
} from "@/db/schema";
import { notFound } from "@/lib/http/errors";
import { dateOfDay, ZoneOffsets, type SlotInput } from "@/lib/slots";
import { minutesOf } from "@/lib/time";

// Reads what the slot engine needs for one host and one span of time. The engine itself never
// touches the database; this is its only feeder, for the slots list and for the booking re-check.

const DAY = 86_400_000;
// Buffers reach at most 240 minutes beyond a slot; a day on each side covers them and any zone.
const MARGIN = 2 * DAY;

export type PublicEventType = { host: UserRow; eventType: EventTypeRow };

/** The host and active event type behind /{username}/{slug}, or 404 for anything else. */
export async function getPublicEventTypeOrThrow(db: Db | Tx, username: string, slug: string): Promise<PublicEventType> {
  const [row] = await db
    .select({ host: users, eventType: eventTypes })
    .from(eventTypes)
    .innerJoin(users, eq(users.id, eventTypes.userId))
    .where(and(eq(users.username, username), eq(eventTypes.slug, slug), eq(eventTypes.isActive, true)))
    .limit(1);
  if (!row) throw notFound("Event type");
  return row;
}

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
 * Availability, bookings and calendar busy time of the host around [from, to) (instants).
 * `ignoreBookingId`: the booking being rescheduled does not block its own new slot.
 */
export async function loadSlotData(
  db: Db | Tx,
  host: UserRow,
  eventType: EventTypeRow,
  from: number,
  to: number,
  ignoreBookingId?: string,
): Promise<SlotData> {
  const zone = ZoneOffsets.of(host.timezone);
  const lo = new Date(from - MARGIN);
  const hi = new Date(to + MARGIN);
  const firstDate = dateOfDay(zone.dayOf(lo.getTime()));
  const lastDate = dateOfDay(zone.dayOf(hi.getTime()));

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
          gte(availabilityOverrides.date, firstDate),
          lte(availabilityOverrides.date, lastDate),
        ),
      ),
    db
      .select({ start: bookings.blockedStart, end: bookings.blockedEnd })
      .from(bookings)
      .where(
        and(
          eq(bookings.hostId, host.id),
          ne(bookings.status, "cancelled"),
          lt(bookings.blockedStart, hi),
          gt(bookings.blockedEnd, lo),
          ignoreBookingId ? ne(bookings.id, ignoreBookingId) : undefined,
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
          lt(busyIntervals.startTime, hi),
          gt(busyIntervals.endTime, lo),
        ),
      ),
  ]);

  return {
    host: engineHost(host),
    weeklyRules: rules,
    // A closed date has no intervals: the engine reads an empty list as "closed".
    overrides: overrides.map((o) => ({
      date: o.date,
      intervals: o.intervals.map((i) => ({ startMinute: minutesOf(i.startTime), endMinute: minutesOf(i.endTime) })),
    })),
    eventType: engineEventType(eventType),
    busy: [...blocked, ...busy].map((b) => ({ start: b.start.getTime(), end: b.end.getTime() })),
  };
}

