import "server-only";
import type { Db } from "@/db";
import type { EventTypeRow } from "@/db/schema";
import { checkCalendarsAtBooking } from "@/lib/services/calendars/check-at-booking";
import { conflictCalendarsOf } from "@/lib/services/calendars/conflict-calendars";
import { slotUnavailable } from "./store";

const MINUTE = 60_000;

/**
 * The check at booking (decisions §17) for a new booking or a move to `start`, before the
 * transaction takes the hosts' locks: the providers of stale calendars are asked about the range
 * the booking would block. A host found busy is refused (409 slot_unavailable, as a lost race).
 * Round robin asks every candidate at once, not only the host the rule would pick: the pick is
 * made under the locks from the stored data, which now holds what the check found, so a busy
 * candidate is simply not picked, and the wait is the same (CALENDAR_CHECK_MS at most).
 * `staleKnown`: what the caller already read about the hosts' calendars (undefined: not read).
 * The calendars asked are the event type's choice (decisions §21), as slots and explain read it.
 */
export async function refuseIfCalendarsBusy(
  db: Db,
  args: { eventType: EventTypeRow; hostIds: string[]; start: number; now: number; staleKnown?: boolean },
): Promise<void> {
  const { eventType, hostIds, start } = args;
  const from = start - eventType.bufferBeforeMinutes * MINUTE;
  const to = start + (eventType.durationMinutes + eventType.bufferAfterMinutes) * MINUTE;
  const { busyHostIds } = await checkCalendarsAtBooking(db, { hostIds, from, to, now: args.now, staleKnown: args.staleKnown, calendarIds: conflictCalendarsOf(eventType) });
  if (busyHostIds.size === 0) return;
  const roundRobin = eventType.schedulingType === "round_robin";
  if (!roundRobin || hostIds.every((id) => busyHostIds.has(id))) throw slotUnavailable();
}

/**
 * The check at booking for a series (decisions §19): each host's occurrences' ranges are asked of
 * their stale calendars, together. Nothing is refused here: what the providers said is stored as
 * busy time, and the series' check under the locks reads it with everything else, so the guest
 * learns every occurrence that is not free, calendars' included, in one answer.
 */
export async function checkCalendarsForSeries(
  db: Db,
  args: { eventType: EventTypeRow; startsByHost: Map<string, number[]>; now: number },
): Promise<void> {
  const { eventType } = args;
  const before = eventType.bufferBeforeMinutes * MINUTE;
  const after = (eventType.durationMinutes + eventType.bufferAfterMinutes) * MINUTE;
  await Promise.all(
    [...args.startsByHost].flatMap(([hostId, starts]) =>
      starts.map((start) =>
        checkCalendarsAtBooking(db, { hostIds: [hostId], from: start - before, to: start + after, now: args.now, calendarIds: conflictCalendarsOf(eventType) }),
      ),
    ),
  );
}
