import "server-only";
import type { Db, Tx } from "@/db";
import { runStatements } from "@/db/client";

// Who a booking is with: its hosts (booking_hosts, the booking's own host first) and, for a team
// booking, its team (decisions §15). One statement for any number of bookings: the lists, the
// answers of every booking verb, the messages and the calendar writes read it.

export type BookingHost = { userId: string; username: string; fullName: string; email: string; timezone: string };
export type BookingTeam = { id: string; slug: string; name: string };
export type BookingPeople = { hosts: BookingHost[]; team: BookingTeam | null };

const PEOPLE_SQL = `
select b.id,
  (select coalesce(json_agg(json_build_object('userId', u.id, 'username', u.username, 'fullName', u.full_name,
            'email', u.email, 'timezone', u.timezone) order by u.id <> b.host_id, u.full_name, u.id), '[]'::json)
     from booking_hosts bh join users u on u.id = bh.user_id where bh.booking_id = b.id) as hosts,
  case when t.id is null then null else json_build_object('id', t.id, 'slug', t.slug, 'name', t.name) end as team
from bookings b
join event_types e on e.id = b.event_type_id
left join teams t on t.id = e.team_id
where b.id in (select json_array_elements_text($1::text::json))`;

export async function loadBookingPeople(db: Db | Tx, bookingIds: string[]): Promise<Map<string, BookingPeople>> {
  const people = new Map<string, BookingPeople>();
  if (bookingIds.length === 0) return people;
  const [rows] = await runStatements(db)<[{ id: string; hosts: BookingHost[]; team: BookingTeam | null }[]]>([
    { text: PEOPLE_SQL, params: [JSON.stringify(bookingIds)] },
  ]);
  for (const { id, hosts, team } of rows) people.set(id, { hosts, team });
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
  };
}
