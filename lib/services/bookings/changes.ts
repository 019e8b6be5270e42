import "server-only";
import { and, asc, eq, gte, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db";
import { bookingHosts, bookings, eventTypes, type UserRow } from "@/db/schema";
import { toBooking, type BookingDto } from "@/lib/dto";
import { validationError } from "@/lib/errors";
import { isInstantInRange } from "@/lib/time/instants";
import { loadBookingPeople } from "./people";

// The walk of a host's changes (GET /me/bookings?updatedSince= or ?cursor=, decisions §18): the
// host's bookings by the time they last changed, then id, a step at a time. A client that follows
// nextCursor until null, and starts its next walk at the greatest updatedAt it read, misses no
// change and reads no version twice within a walk, however the writes interleave:
// - every change of a booking is stamped by the database's clock (bookings_stamp, migration 0027)
//   while its writer holds the booking locks of all the booking's hosts, to its commit
//   (write-booking.ts, create, reschedule). So for a host, a change that commits after a step
//   was read is stamped later than everything of that host the step saw: the walk, which goes on
//   strictly after the step's last (changed_at, id), reaches it;
// - a change stamped in the same microsecond as another is told apart by the booking's id;
// - a booking appears once per version: its host's row has one position, at its last change.
// A booking a round robin moved to another host leaves the former host's walk with its row
// (it is no longer theirs to read); they are told by the booking.rescheduled webhook.

type Position = { at: string; id: string };

/** The cursor of a position: opaque to clients (base64url), its time to the microsecond. */
function cursorOf(position: Position): string {
  return Buffer.from(`${position.at}|${position.id}`).toString("base64url");
}

const EXACT_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const BOOKING_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The position a cursor names, or 400 at `cursor`: a cursor this list did not give is the client's mistake. */
function positionOf(cursor: string): Position {
  const [at = "", id = "", ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const ms = Date.parse(at);
  // The time read back must be the one written (no 31 February), inside what PostgreSQL reads.
  const exact = EXACT_INSTANT.test(at) && isInstantInRange(ms) && new Date(ms).toISOString().slice(0, 23) === at.slice(0, 23);
  if (!exact || !BOOKING_ID.test(id) || rest.length > 0) {
    throw validationError([{ path: "cursor", message: "Must be a nextCursor this list gave" }]);
  }
  return { at, id };
}

/** The row's change time as text, to the microsecond: a JavaScript Date would keep milliseconds only. */
const changedAtText = sql<string>`to_char(${bookingHosts.changedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export type BookingChangesPage = { data: BookingDto[]; pagination: { limit: number; nextCursor: string | null } };

/**
 * One step of the walk: the host's rows of booking_hosts after the cursor (or changed at or
 * after updatedSince; both when both are given), by the index (user_id, changed_at, booking_id),
 * then their bookings by key. Both reads in one snapshot (repeatable read): a booking read
 * by key is the version its row placed, never a later one the walk will meet again.
 */
export async function listBookingChanges(db: Db, host: UserRow, query: { limit: number; updatedSince?: number; cursor?: string }): Promise<BookingChangesPage> {
  const after = query.cursor === undefined ? undefined : positionOf(query.cursor);
  const where: (SQL | undefined)[] = [
    eq(bookingHosts.userId, host.id),
    query.updatedSince === undefined ? undefined : gte(bookingHosts.changedAt, new Date(query.updatedSince)),
    after && sql`(${bookingHosts.changedAt}, ${bookingHosts.bookingId}) > (${after.at}::timestamptz, ${after.id}::text)`,
  ];
  const { rows, found, people } = await db.transaction(
    async (tx) => {
      const rows = await tx
        .select({ id: bookingHosts.bookingId, at: changedAtText })
        .from(bookingHosts)
        .where(and(...where))
        .orderBy(asc(bookingHosts.changedAt), asc(bookingHosts.bookingId))
        .limit(query.limit);
      if (rows.length === 0) return { rows, found: [], people: new Map() };
      const ids = rows.map((r) => r.id);
      const [found, people] = await Promise.all([
        tx
          .select({ booking: bookings, eventType: { id: eventTypes.id, title: eventTypes.title } })
          .from(bookings)
          .innerJoin(eventTypes, eq(eventTypes.id, bookings.eventTypeId))
          .where(inArray(bookings.id, ids)),
        loadBookingPeople(tx, ids),
      ]);
      return { rows, found, people };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
  const byId = new Map(found.map((r) => [r.booking.id, r]));
  const last = rows.at(-1);
  return {
    data: rows.map((r) => byId.get(r.id)!).map((r) => toBooking(r.booking, r.eventType, people.get(r.booking.id)!)),
    // A short step is the end: everything after it would have been in it.
    pagination: { limit: query.limit, nextCursor: last && rows.length === query.limit ? cursorOf(last) : null },
  };
}
