import "server-only";
import type { EventTypeRow, UserRow } from "@/db/schema";
import { seriesFree, seriesStarts } from "@/lib/slots/series";
import { engineInputFor, type HostSchedule, type ScheduleSpan } from "@/lib/services/host-time/load";

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
