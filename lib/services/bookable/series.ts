import "server-only";
import type { z } from "zod";
import type { Db } from "@/db";
import type { EventTypeRow, UserRow } from "@/db/schema";
import { validationError } from "@/lib/errors";
import type { SeriesQuery } from "@/lib/schemas/booking";
import { toSlotDtos } from "@/lib/slots";
import { getPublicBookableCached, type PublicOwner } from "./bookable";
import { seriesFree, seriesStarts } from "@/lib/slots/series";
import { engineInputFor, loadHostSchedules, type HostSchedule, type ScheduleSpan } from "@/lib/services/host-time/load";

// A series' occurrences for each host who could host it (decisions §19): the first start's
// wall-clock time in the zone the host's hours are read in, `everyWeeks` apart, and whether the
// engine offers each. The booking's check under the locks, the check at booking before them and
// the guest's preview of the dates all read it.

const DAY = 86_400_000;
const WEEK = 7 * DAY;

/** One host's series: its starts and whether each is free for them. */
export type SeriesPlan = { host: UserRow; starts: number[]; free: boolean[] };

/** The time a series' check reads: from the day before its first start to the day after its last (a DST change moves it by hours). */
export function seriesSpan(eventType: EventTypeRow, first: number, count: number): ScheduleSpan {
  const weeks = eventType.recurrence?.everyWeeks ?? 1;
  return { from: first - DAY, to: first + (count - 1) * weeks * WEEK + 2 * DAY };
}

function startsFor(eventType: EventTypeRow, schedule: HostSchedule, first: number, count: number): number[] {
  return seriesStarts(first, schedule.timeZone, eventType.recurrence?.everyWeeks ?? 1, count);
}

/** Each host's occurrences (hosts whose schedule was not read have none). */
export function seriesStartsByHost(hosts: UserRow[], eventType: EventTypeRow, schedules: Map<string, HostSchedule>, first: number, count: number): Map<string, number[]> {
  const starts = new Map<string, number[]>();
  for (const host of hosts) {
    const schedule = schedules.get(host.id);
    if (schedule) starts.set(host.id, startsFor(eventType, schedule, first, count));
  }
  return starts;
}

/** Each host's series and which occurrences the engine offers them. */
export function seriesPlans(hosts: UserRow[], eventType: EventTypeRow, schedules: Map<string, HostSchedule>, first: number, count: number, now: number): SeriesPlan[] {
  return hosts.flatMap((host) => {
    const schedule = schedules.get(host.id);
    if (!schedule) return [];
    const starts = startsFor(eventType, schedule, first, count);
    return [{ host, starts, free: seriesFree(engineInputFor(host, eventType, schedule, now), starts) }];
  });
}

/** The series a guest is shown: the host free for the most occurrences (the first such host). */
export function bestPlan(plans: SeriesPlan[]): SeriesPlan | undefined {
  const freeCount = (p: SeriesPlan) => p.free.filter(Boolean).length;
  return plans.reduce<SeriesPlan | undefined>((best, p) => (best === undefined || freeCount(p) > freeCount(best) ? p : best), undefined);
}

/** The occurrences that are not free in the series the guest is shown. */
export function notFreeOf(plans: SeriesPlan[]): number[] {
  const best = bestPlan(plans);
  return best ? best.starts.filter((_, k) => !best.free[k]) : [];
}

/** A series is asked of a recurring event type, within its most occurrences (400 at `occurrences` otherwise). */
export function checkOccurrences(eventType: EventTypeRow, occurrences: number): void {
  if (occurrences === 1) return;
  if (!eventType.recurrence) throw validationError([{ path: "occurrences", message: "This event type does not recur: book one time" }]);
  if (occurrences > eventType.recurrence.maxOccurrences) {
    throw validationError([{ path: "occurrences", message: `Must be at most ${eventType.recurrence.maxOccurrences}` }]);
  }
}

/**
 * GET …/series: the dates a series from `startTime` would take and whether each is free now, as
 * the booking would decide it (the same plans; for round robin a host free for all of them, else
 * the host free for the most), shown in the guest's zone. Read fresh, not from the slot cache: it
 * is asked once, before a guest books.
 */
export async function previewSeries(db: Db, owner: PublicOwner, slug: string, query: z.output<typeof SeriesQuery>, now: number) {
  const { eventType, hosts } = await getPublicBookableCached(db, owner, slug);
  checkOccurrences(eventType, query.occurrences);
  const users = hosts.map((h) => h.host);
  const schedules = await loadHostSchedules(db, users, seriesSpan(eventType, query.startTime, query.occurrences), eventType);
  const plans = seriesPlans(users, eventType, schedules, query.startTime, query.occurrences, now);
  const shown = plans.find((p) => p.free.every(Boolean)) ?? bestPlan(plans);
  const duration = eventType.durationMinutes * 60_000;
  const slots = toSlotDtos((shown?.starts ?? []).map((start) => ({ start, end: start + duration })), query.timezone);
  return { timezone: query.timezone, occurrences: slots.map((slot, k) => ({ ...slot, available: shown!.free[k]! })) };
}
