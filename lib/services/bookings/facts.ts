import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { bookings, eventTypes, users } from "@/db/schema";
import type { BookingFacts, FactsHost } from "@/lib/notifications/booking-facts";
import { openGuestToken } from "./guest-token";
import type { BookingTeam } from "./people";
import { hashCancelToken } from "./store";

// What messages about a booking need besides the booking itself: the event type's title and
// questions, who the host is (name, address, zone), every host and the team (as loadPeopleOf
// orders them: the booking's own host first), and the guest's sealed token (a guest's message
// carries their links). One statement, prepared once per database and per connection on
// PostgreSQL: every email, reminder and calendar write of a booking reads it.

export type { BookingFacts };

function factsQuery(db: Db, by: "id" | "token") {
  return db
    .select({
      booking: bookings,
      title: eventTypes.title,
      questions: eventTypes.customQuestions,
      host: { userId: users.id, fullName: users.fullName, email: users.email, timezone: users.timezone, language: users.language },
      hosts: sql<FactsHost[]>`(select coalesce(json_agg(json_build_object('userId', u.id, 'fullName', u.full_name, 'email', u.email,
          'timezone', u.timezone, 'language', u.language) order by u.id <> ${bookings.hostId}, u.full_name, u.id), '[]'::json)
        from booking_hosts bh join users u on u.id = bh.user_id where bh.booking_id = ${bookings.id})`,
      team: sql<BookingTeam | null>`(select json_build_object('id', t.id, 'slug', t.slug, 'name', t.name) from teams t where t.id = ${eventTypes.teamId})`,
      sealedGuestToken: sql<string | null>`(select g.sealed_token from booking_guest_tokens g where g.booking_id = ${bookings.id})`,
    })
    .from(bookings)
    .innerJoin(eventTypes, eq(eventTypes.id, bookings.eventTypeId))
    .innerJoin(users, eq(users.id, sql`coalesce(${sql.placeholder("hostId")}::text, ${bookings.hostId})`))
    .where(eq(by === "id" ? bookings.id : bookings.cancelTokenHash, sql.placeholder("key")))
    .limit(1)
    .prepare(`booking_facts_by_${by}`);
}

type FactsQuery = ReturnType<typeof factsQuery>;
const prepared = new WeakMap<Db, Record<"id" | "token", FactsQuery | undefined>>();

async function loadWhere(db: Db, by: "id" | "token", key: string, hostId?: string): Promise<{ facts: BookingFacts; sealedGuestToken: string | null } | undefined> {
  let queries = prepared.get(db);
  if (!queries) prepared.set(db, (queries = { id: undefined, token: undefined }));
  const query = (queries[by] ??= factsQuery(db, by));
  const [found] = await query.execute({ key, hostId: hostId ?? null });
  if (!found) return undefined;
  const { booking, title, questions, host, hosts, team, sealedGuestToken } = found;
  return { facts: { booking, title, questions, host, hosts, team }, sealedGuestToken };
}

/**
 * A booking's facts, written for `hostId` (one of its hosts, or one a reassignment took it from;
 * by default the booking's own host). Undefined when the booking or that host is gone.
 */
export async function loadBookingFacts(db: Db, bookingId: string, hostId?: string): Promise<BookingFacts | undefined> {
  return (await loadWhere(db, "id", bookingId, hostId))?.facts;
}

/**
 * A booking's facts for a message to its guest, with the guest's token (undefined when it is not
 * kept, erased, or no longer opens: the key was replaced), in the same statement.
 */
export async function loadGuestMessageFacts(db: Db, bookingId: string): Promise<{ facts: BookingFacts; guestToken: string | undefined } | undefined> {
  const found = await loadWhere(db, "id", bookingId);
  if (!found) return undefined;
  return { facts: found.facts, guestToken: found.sealedGuestToken === null ? undefined : openGuestToken(found.sealedGuestToken) };
}

/** The booking a guest's token (from cancelUrl) belongs to. */
export async function loadBookingFactsByGuestToken(db: Db, token: string): Promise<BookingFacts | undefined> {
  return (await loadWhere(db, "token", hashCancelToken(token)))?.facts;
}
