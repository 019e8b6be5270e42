import "server-only";
import { and, eq, or, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { eventTypes, teamMembers, type UserRow } from "@/db/schema";
import { notFound } from "@/lib/errors";
import type { Insights, InsightsQuery } from "@/lib/schemas/insights";
import { dateOfDay, dayOfDate, ZoneOffsets } from "@/lib/slots";
import { clampInstant } from "@/lib/time/instants";
import { liveMember } from "@/lib/services/teams/invitation-rules";

// GET /me/insights (decisions §22): how the host's bookings are doing, counted by PostgreSQL in
// one statement (one snapshot, one round trip) over the host's entries of booking_hosts, read by
// their index (user_id, start_time, booking_id): what a year of a host with a long past costs does
// not grow with that past. Only the grouped rows come back; the days without bookings are filled
// in here. What each figure counts, exactly: docs/insights.md.

type Query = z.output<typeof InsightsQuery>;

/**
 * The bookings a range counts: the host's entries whose start falls in [lo, hi), of every status
 * but a payment hold (`awaiting_payment`: it may vanish within minutes) and a hold that vanished
 * (cancelled without ever having been paid: its hold expired, failed, or was given up). A paid
 * booking's history says `paid` once its payment came (payment-events.ts).
 *
 * Each entry's booking and event type are read by their keys, in a lateral subquery the planner
 * cannot flatten (OFFSET 0): as a join, it planned from its guess of the host's entries in the
 * range, which it cannot know (a host's start times and everyone's are not alike), and on the
 * growth bench's database it guessed 83,000 for 7,500 and hashed all 1,000,000 bookings (1 s).
 */
function countedBookings(host: UserRow, lo: Date, hi: Date, query: Query): SQL {
  return sql`
    select b.*
    from booking_hosts bh
    cross join lateral (
      select b.id, b.status, b.event_type_id, b.no_show, e.team_id is not null as of_team,
        b.previous_start_time is not null as moved,
        b.start_time at time zone ${host.timezone}::text as local_start,
        extract(epoch from b.start_time - b.created_at) / 3600 as lead_hours
      from bookings b
      join event_types e on e.id = b.event_type_id
      where b.id = bh.booking_id
        and not (b.status = 'cancelled' and b.payment_id is not null
          and not exists (select 1 from booking_history h where h.booking_id = b.id and h.action = 'paid'))
        ${query.eventTypeId ? sql`and b.event_type_id = ${query.eventTypeId}::text` : sql``}
        ${query.teamId ? sql`and e.team_id = ${query.teamId}::text` : sql``}
      offset 0) b
    where bh.user_id = ${host.id}::text
      and bh.start_time >= ${lo.toISOString()}::timestamptz and bh.start_time < ${hi.toISOString()}::timestamptz
      and bh.status <> 'awaiting_payment'`;
}

/**
 * Every figure over the counted bookings, each a json value of one row. What is looked up per
 * group or per booking (a title, a username, a booking's hosts) is read by its key, for the same
 * reason as above.
 */
function figuresOf(counted: SQL): SQL {
  return sql`
    with counted as (${counted})
    select
      (select json_build_object(
         'bookings', count(*),
         'confirmed', count(*) filter (where status = 'confirmed'),
         'pending', count(*) filter (where status = 'pending'),
         'cancelled', count(*) filter (where status = 'cancelled'),
         'rescheduled', count(*) filter (where moved),
         'noShow', count(*) filter (where no_show)) from counted) as totals,
      (select coalesce(json_agg(json_build_array(d, n, c, ns)), '[]'::json) from (
         select to_char(local_start, 'YYYY-MM-DD') as d, count(*) as n,
           count(*) filter (where status = 'cancelled') as c, count(*) filter (where no_show) as ns
         from counted group by 1) days) as by_day,
      (select coalesce(json_agg(json_build_object('eventTypeId', event_type_id, 'title', title,
           'bookings', n, 'cancelled', c, 'noShow', ns) order by n desc, title, event_type_id), '[]'::json)
       from (select event_type_id, (select e.title from event_types e where e.id = event_type_id) as title, count(*) as n,
               count(*) filter (where status = 'cancelled') as c, count(*) filter (where no_show) as ns
             from counted group by event_type_id) per_type) as by_event_type,
      (select coalesce(json_agg(json_build_object('weekday', w, 'hour', h, 'bookings', n) order by w, h), '[]'::json) from (
         select extract(dow from local_start)::int as w, extract(hour from local_start)::int as h, count(*) as n
         from counted where status <> 'cancelled' group by 1, 2) cells) as by_weekday_hour,
      (select json_build_object(
         'median', percentile_cont(0.5) within group (order by lead_hours),
         'p90', percentile_cont(0.9) within group (order by lead_hours))
       from counted where status <> 'cancelled') as lead_time,
      (select coalesce(json_agg(json_build_object('userId', user_id, 'username', who->>'username', 'fullName', who->>'fullName', 'bookings', n)
           order by n desc, who->>'username', user_id), '[]'::json)
       from (select hosts.user_id, count(*) as n,
               (select json_build_object('username', u.username, 'fullName', u.full_name) from users u where u.id = hosts.user_id) as who
             from counted c
             cross join lateral (select bh.user_id from booking_hosts bh where bh.booking_id = c.id offset 0) hosts
             where c.of_team and c.status <> 'cancelled' group by hosts.user_id) per_host) as by_host`;
}

type FiguresRow = {
  totals: Insights["totals"];
  by_day: [string, number, number, number][];
  by_event_type: Insights["byEventType"];
  by_weekday_hour: Insights["byWeekdayHour"];
  lead_time: { median: number | null; p90: number | null };
  by_host: Insights["byHost"];
};

/** postgres.js answers raw SQL with an array of rows, PGlite with { rows }. */
function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * A filter the host may not use is answered as an id that was never used (404), as every host
 * route does: an event type is theirs or of a team they belong to (an invitation still waiting
 * included, as for seeing the team); a team is one they belong to.
 */
async function assertVisible(db: Db, host: UserRow, query: Query): Promise<void> {
  const isMember = (teamId: SQL) => sql`exists (select 1 from ${teamMembers} where ${teamMembers.teamId} = ${teamId} and ${teamMembers.userId} = ${host.id} and ${liveMember()})`;
  const eventType = query.eventTypeId
    ? db
        .select({ id: eventTypes.id })
        .from(eventTypes)
        .where(and(eq(eventTypes.id, query.eventTypeId), or(eq(eventTypes.userId, host.id), isMember(sql`${eventTypes.teamId}`))))
    : undefined;
  const team = query.teamId
    ? db
        .select({ id: teamMembers.teamId })
        .from(teamMembers)
        .where(and(eq(teamMembers.teamId, query.teamId), eq(teamMembers.userId, host.id), liveMember()))
    : undefined;
  const [ownType, membership] = await Promise.all([eventType ?? ["not asked"], team ?? ["not asked"]]);
  if (ownType.length === 0) throw notFound("Event type");
  if (membership.length === 0) throw notFound("Team");
}

/** Hours rounded to a tenth: a lead time is read as "2.5 days", not to the second. */
const tenth = (hours: number | null) => (hours === null ? null : Math.round(hours * 10) / 10);

/** The host's insights for the range and filters of `query` (validated: from ≤ to, at most 366 days). */
export async function insightsFor(db: Db, host: UserRow, query: Query): Promise<Insights> {
  await assertVisible(db, host, query);
  const zone = ZoneOffsets.of(host.timezone);
  const first = dayOfDate(query.from);
  const last = dayOfDate(query.to);
  // A local day starts at its midnight, or at the first instant after it where a DST change skips it.
  const edge = (day: number) => new Date(clampInstant(zone.instantAtOrAfter(day * 1440)));
  const statement = figuresOf(countedBookings(host, edge(first), edge(last + 1), query));
  const [row] = await db.transaction(async (tx) => {
    // The planner's guess of the host's entries is the whole range's (see countedBookings): on the
    // growth bench's database it crossed jit_above_cost, and compiling the statement took 150 to
    // 630 ms for a read of 50 ms. Nothing here is heavy enough to gain from JIT.
    await tx.execute(sql`set local jit = off`);
    return rowsOf<FiguresRow>(await tx.execute(statement));
  });
  const days = new Map(row!.by_day.map(([date, bookings, cancelled, noShow]) => [date, { bookings, cancelled, noShow }]));
  const byDay: Insights["byDay"] = [];
  for (let day = first; day <= last; day++) {
    const date = dateOfDay(day);
    byDay.push({ date, ...(days.get(date) ?? { bookings: 0, cancelled: 0, noShow: 0 }) });
  }
  return {
    from: query.from,
    to: query.to,
    timeZone: host.timezone,
    totals: row!.totals,
    byDay,
    byEventType: row!.by_event_type,
    byWeekdayHour: row!.by_weekday_hour,
    leadTimeHours: { median: tenth(row!.lead_time.median), p90: tenth(row!.lead_time.p90) },
    byHost: row!.by_host,
  };
}
