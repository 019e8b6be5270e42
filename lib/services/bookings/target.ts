import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { calendarConnections, calendars, eventTypes, idempotencyKeys, users } from "@/db/schema";
import type { PublicEventType } from "@/lib/services/bookable/public";

function prepareBookingTarget(db: Db) {
  // Whether a calendar that counts for the event type (its own choice, else those marked
  // check_conflicts: decisions §21) has busy data older than `freshSince` (or none yet): the check
  // at booking asks its provider (decisions §17). Read here, so a host without calendars, or with
  // fresh ones, pays no statement for it.
  const calendarsStale = sql<boolean>`exists (
    select 1 from ${calendarConnections} cc join ${calendars} c on c.connection_id = cc.id
      and (case when ${eventTypes.conflictCalendars} is null then c.check_conflicts else ${eventTypes.conflictCalendars} @> jsonb_build_array(c.id) end)
    where cc.user_id = ${users.id} and cc.status <> 'reauth_required'
      and (cc.busy_as_of is null or cc.busy_as_of < ${sql.placeholder("freshSince")}::text::timestamptz))`;
  return db
    .select({ host: users, eventType: eventTypes, key: idempotencyKeys, calendarsStale })
    .from(eventTypes)
    .innerJoin(users, eq(users.id, eventTypes.userId))
    .leftJoin(idempotencyKeys, and(eq(idempotencyKeys.scope, sql.placeholder("scope")), eq(idempotencyKeys.key, sql.placeholder("key"))))
    .where(and(eq(users.username, sql.placeholder("username")), eq(eventTypes.slug, sql.placeholder("slug")), eq(eventTypes.isActive, true)))
    .limit(1)
    .prepare("public_booking_target");
}

// Prepared once per database: its SQL is built once, and PostgreSQL plans it once per connection.
const bookingTargets = new WeakMap<Db, ReturnType<typeof prepareBookingTarget>>();

/**
 * What a booking request starts from, in one statement: the host and active event type behind
 * /{username}/{slug}, and the row of its Idempotency-Key if there is one. Undefined when no such
 * event type is active (the key may still hold an earlier answer: findStoredAnswer).
 * `calendarsStale`: whether a conflict-checking calendar of the host was last read before `freshSince`.
 */
export async function findBookingTarget(
  db: Db,
  username: string,
  slug: string,
  claim: { scope: string; key: string },
  freshSince: number,
): Promise<(PublicEventType & { key: typeof idempotencyKeys.$inferSelect | null; calendarsStale: boolean }) | undefined> {
  let prepared = bookingTargets.get(db);
  if (!prepared) bookingTargets.set(db, (prepared = prepareBookingTarget(db)));
  const [row] = await prepared.execute({ username, slug, scope: claim.scope, key: claim.key, freshSince: new Date(freshSince).toISOString() });
  return row;
}
