import "server-only";
import { and, asc, count, desc, eq, gt, gte, inArray, lt, lte, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { bookingHosts, bookings, eventTypes, type UserRow } from "@/db/schema";
import { loadBookingPeople } from "./people";
import { toBooking, type BookingDto } from "@/lib/dto";
import type { BookingListQuery } from "@/lib/schemas/booking";
import { dayOfDate, ZoneOffsets } from "@/lib/slots";
import { clampInstant } from "@/lib/time/instants";

type ListQuery = z.output<typeof BookingListQuery>;

/**
 * GET /me/bookings: the bookings the host hosts (personal and team), by start time; from/to are
 * dates in the host's zone.
 *
 * The host's rows of booking_hosts carry each booking's start, indexed by (host, start, booking):
 * the list is read in that index's order, so its cost does not grow with the host's past. The
 * contract pages by number (page, limit, total), so a deep page still skips entries: with no
 * filter on the bookings themselves (the list as first shown, or a date range) the page's ids and
 * the total come from the index alone (an index-only scan skips page 500's 10,000 entries in a
 * few milliseconds), and only the page's own bookings are read. Filters on a booking's status,
 * guest or end walk the same index and read each candidate booking by its key.
 */
export async function listBookings(
  db: Db,
  host: UserRow,
  query: ListQuery,
  now: number = Date.now(),
): Promise<{ data: BookingDto[]; pagination: { page: number; limit: number; total: number } }> {
  const zone = ZoneOffsets.of(host.timezone);
  // The edges of the host's days, kept inside the instants PostgreSQL reads (9999-12-31 in a zone
  // west of UTC ends in the year 10000).
  const edge = (day: number) => new Date(clampInstant(zone.instantAtOrAfter(day * 1440)));
  const onHostRow: (SQL | undefined)[] = [eq(bookingHosts.userId, host.id)];
  if (query.from) onHostRow.push(gte(bookingHosts.startTime, edge(dayOfDate(query.from))));
  if (query.to) onHostRow.push(lt(bookingHosts.startTime, edge(dayOfDate(query.to) + 1)));
  const onBooking: SQL[] = [];
  if (query.status) onBooking.push(inArray(bookings.status, query.status));
  if (query.noShow !== undefined) onBooking.push(eq(bookings.noShow, query.noShow));
  if (query.eventTypeId) onBooking.push(eq(bookings.eventTypeId, query.eventTypeId));
  if (query.when === "upcoming") onBooking.push(gt(bookings.endTime, new Date(now)));
  if (query.when === "past") onBooking.push(lte(bookings.endTime, new Date(now)));
  const order =
    query.when === "past" ? [desc(bookingHosts.startTime), desc(bookingHosts.bookingId)] : [asc(bookingHosts.startTime), asc(bookingHosts.bookingId)];
  const offset = (query.page - 1) * query.limit;
  const columns = { booking: bookings, eventType: { id: eventTypes.id, title: eventTypes.title } };

  let rows: { booking: typeof bookings.$inferSelect; eventType: { id: string; title: string } }[];
  let total: number;
  if (onBooking.length === 0) {
    const where = and(...onHostRow);
    const page = db.select({ id: bookingHosts.bookingId }).from(bookingHosts).where(where).orderBy(...order).limit(query.limit).offset(offset);
    const [ids, [counted]] = await Promise.all([page, db.select({ total: count() }).from(bookingHosts).where(where)]);
    total = counted?.total ?? 0;
    const found =
      ids.length === 0
        ? []
        : await db
            .select(columns)
            .from(bookings)
            .innerJoin(eventTypes, eq(eventTypes.id, bookings.eventTypeId))
            .where(inArray(bookings.id, ids.map((r) => r.id)));
    const byId = new Map(found.map((r) => [r.booking.id, r]));
    rows = ids.map((r) => byId.get(r.id)!).filter(Boolean);
  } else {
    const where = and(...onHostRow, ...onBooking);
    const [found, [counted]] = await Promise.all([
      db
        .select(columns)
        .from(bookingHosts)
        .innerJoin(bookings, eq(bookings.id, bookingHosts.bookingId))
        .innerJoin(eventTypes, eq(eventTypes.id, bookings.eventTypeId))
        .where(where)
        .orderBy(...order)
        .limit(query.limit)
        .offset(offset),
      db.select({ total: count() }).from(bookingHosts).innerJoin(bookings, eq(bookings.id, bookingHosts.bookingId)).where(where),
    ]);
    rows = found;
    total = counted?.total ?? 0;
  }
  const people = await loadBookingPeople(db, rows.map((r) => r.booking.id));
  return {
    data: rows.map((r) => toBooking(r.booking, r.eventType, people.get(r.booking.id)!)),
    pagination: { page: query.page, limit: query.limit, total },
  };
}
