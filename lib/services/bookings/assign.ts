import "server-only";
import type { Db, Tx } from "@/db";
import { runStatements } from "@/db/client";
import type { EventTypeRow, UserRow } from "@/db/schema";
import { isOfferedSlot } from "@/lib/slots";
import { pickRoundRobinHost, type RoundRobinCandidate } from "@/lib/slots/team";
import { engineInputFor, type HostSchedule } from "@/lib/services/host-time/load";

// Who hosts a booking at a start (decisions §15): a personal event type's host, every host of a
// collective one, or the round-robin host the rule picks among those free. Read inside the
// booking's transaction, under every host's lock, so the choice is made on what is true now.

const DAY = 86_400_000;

export type Assignment = { primary: UserRow; coHosts: UserRow[] };

/**
 * The hosts who could take `start` alone: their hours (the event type's schedule), zone, notice,
 * window, busy time and the event type's limits (a host at their limit that day or week is not
 * free). `schedules` must be read inside the booking's transaction, under the hosts' locks, so
 * the limit's count cannot be raced past.
 */
export function hostsFreeAt(hosts: UserRow[], eventType: EventTypeRow, schedules: Map<string, HostSchedule>, start: number, now: number): UserRow[] {
  return hosts.filter((host) => {
    const schedule = schedules.get(host.id);
    if (!schedule) return false;
    return isOfferedSlot(engineInputFor(host, eventType, schedule, now), start);
  });
}

// Each host's non-cancelled bookings of the event type starting in the 30 days before the start,
// and when each was last booked for it (epoch ms); $4 is a booking to leave out (the one moving).
const STATS_SQL = `
select bh.user_id as "userId",
  (count(*) filter (where b.start_time >= $3::text::timestamptz - interval '30 days' and b.start_time < $3::text::timestamptz))::int as "recentBookings",
  floor(extract(epoch from max(b.created_at)) * 1000) as "lastBookedAt"
from booking_hosts bh join bookings b on b.id = bh.booking_id
where b.event_type_id = $1::text and b.status <> 'cancelled'
  and bh.user_id in (select json_array_elements_text($2::text::json))
  and ($4::text is null or b.id <> $4::text)
group by bh.user_id`;

/** What the round-robin rule weighs for each host (hosts never booked for the type: 0, never). */
export async function loadRoundRobinStats(
  db: Db | Tx,
  eventTypeId: string,
  hostIds: string[],
  start: number,
  ignoreBookingId?: string,
): Promise<Map<string, RoundRobinCandidate>> {
  const [rows] = await runStatements(db)<[{ userId: string; recentBookings: number; lastBookedAt: string | number | null }[]]>([
    { text: STATS_SQL, params: [eventTypeId, JSON.stringify(hostIds), new Date(start).toISOString(), ignoreBookingId ?? null] },
  ]);
  const stats = new Map<string, RoundRobinCandidate>(hostIds.map((userId) => [userId, { userId, recentBookings: 0, lastBookedAt: undefined }]));
  for (const r of rows) stats.set(r.userId, { userId: r.userId, recentBookings: Number(r.recentBookings), lastBookedAt: r.lastBookedAt === null ? undefined : Number(r.lastBookedAt) });
  return stats;
}

/**
 * Who hosts a booking at `start`: for round robin the rule's pick among the free hosts (`keep`,
 * a moving booking's host, stays when free); otherwise every host, who must all be free.
 * Undefined when nobody (or not everybody) can take it.
 */
export function assignHosts(
  eventType: EventTypeRow,
  hosts: UserRow[],
  free: UserRow[],
  stats: Map<string, RoundRobinCandidate> | undefined,
  keep?: string,
): Assignment | undefined {
  if (hosts.length === 0) return undefined;
  if (eventType.schedulingType === "round_robin") {
    const kept = keep === undefined ? undefined : free.find((h) => h.id === keep);
    const pick = kept?.id ?? pickRoundRobinHost(free.map((h) => stats?.get(h.id) ?? { userId: h.id, recentBookings: 0, lastBookedAt: undefined }));
    const primary = free.find((h) => h.id === pick);
    return primary && { primary, coHosts: [] };
  }
  if (free.length !== hosts.length) return undefined;
  const [primary, ...coHosts] = hosts;
  return { primary: primary!, coHosts };
}

/** The span of time around a start whose schedule decides it. */
export function spanAround(start: number, ignoreBookingId?: string) {
  return { from: start - DAY, to: start + DAY, ignoreBookingId };
}
