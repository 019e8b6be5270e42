import "server-only";
import type { Db, Tx } from "@/db";
import { runStatements } from "@/db/client";
import type { BookingStatus } from "@/db/schema";

// Who a booking is with: its hosts (booking_hosts, the booking's own host first) and, for a team
// booking, its team (decisions §15); and what it shares with other bookings: a seat's start and
// its seats taken, a series and its occurrences (decisions §19). One statement for any number of bookings: the lists, the
// answers of every booking verb, the messages and the calendar writes read it.

export type BookingHost = { userId: string; username: string; fullName: string; email: string; timezone: string };
export type BookingTeam = { id: string; slug: string; name: string };
/** A seat's start: the seats taken now and the event type's max (decisions §19). */
export type BookingSeatView = { taken: number; max: number };
/** A recurring booking's series, every occurrence in order of start. */
export type BookingSeriesView = { id: string; occurrences: { id: string; startTime: string; endTime: string; status: BookingStatus }[] };
export type BookingPeople = { hosts: BookingHost[]; team: BookingTeam | null; seat?: BookingSeatView | null; series?: BookingSeriesView | null };

const PEOPLE_SQL = `
select b.id,
  (select coalesce(json_agg(json_build_object('userId', u.id, 'username', u.username, 'fullName', u.full_name,
            'email', u.email, 'timezone', u.timezone) order by u.id <> b.host_id, u.full_name, u.id), '[]'::json)
     from booking_hosts bh join users u on u.id = bh.user_id where bh.booking_id = b.id) as hosts,
  case when t.id is null then null else json_build_object('id', t.id, 'slug', t.slug, 'name', t.name) end as team,
  case when b.seat_key is null then null else json_build_object(
    'taken', coalesce((select sc.taken from seat_counts sc where sc.seat_key = b.seat_key), 0),
    'max', coalesce((e.seats->>'max')::int, 1)) end as seat,
  case when b.series_id is null then null else json_build_object('id', b.series_id, 'occurrences',
    (select json_agg(json_build_object('id', o.id,
        'startTime', to_char(o.start_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
        'endTime', to_char(o.end_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'status', o.status) order by o.start_time, o.id)
     from bookings o where o.series_id = b.series_id)) end as series
from bookings b
join event_types e on e.id = b.event_type_id
left join teams t on t.id = e.team_id
where b.id in (select json_array_elements_text($1::text::json))`;

export async function loadBookingPeople(db: Db | Tx, bookingIds: string[]): Promise<Map<string, BookingPeople>> {
  const people = new Map<string, BookingPeople>();
  if (bookingIds.length === 0) return people;
  type Row = { id: string; hosts: BookingHost[]; team: BookingTeam | null; seat: BookingSeatView | null; series: BookingSeriesView | null };
  const [rows] = await runStatements(db)<[Row[]]>([{ text: PEOPLE_SQL, params: [JSON.stringify(bookingIds)] }]);
  for (const { id, hosts, team, seat, series } of rows) people.set(id, { hosts, team, seat, series });
  return people;
}

/** One booking's people (a booking that is gone has none). */
export async function loadPeopleOf(db: Db | Tx, bookingId: string): Promise<BookingPeople> {
  return (await loadBookingPeople(db, [bookingId])).get(bookingId) ?? { hosts: [], team: null };
}

/** Who a booking is with, as the API and webhooks show it: names, no address or zone. */
export function peopleView(people: BookingPeople) {
  return {
    hosts: people.hosts.map(({ userId, username, fullName }) => ({ userId, username, fullName })),
    team: people.team,
    seat: people.seat ?? null,
    series: people.series ?? null,
  };
}
