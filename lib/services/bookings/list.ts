import "server-only";
import { and, asc, count, desc, eq, gt, gte, inArray, lt, lte, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { bookings, eventTypes, type UserRow } from "@/db/schema";
import { loadBookingPeople } from "./people";
import { hostedBy } from "./store";
import { toBooking, type BookingDto } from "@/lib/dto";
import type { BookingListQuery } from "@/lib/schemas/booking";
import { dayOfDate, ZoneOffsets } from "@/lib/slots";
import { clampInstant } from "@/lib/time/instants";

/** GET /me/bookings: the bookings the host hosts (personal and team), by start time; from/to are dates in the host's zone. */
export async function listBookings(
  db: Db,
  host: UserRow,
  query: z.output<typeof BookingListQuery>,
  now: number = Date.now(),
): Promise<{ data: BookingDto[]; pagination: { page: number; limit: number; total: number } }> {
  const zone = ZoneOffsets.of(host.timezone);
  const filters: (SQL | undefined)[] = [hostedBy(host.id)];
  if (query.status) filters.push(inArray(bookings.status, query.status));
  if (query.noShow !== undefined) filters.push(eq(bookings.noShow, query.noShow));
  if (query.eventTypeId) filters.push(eq(bookings.eventTypeId, query.eventTypeId));
  if (query.when === "upcoming") filters.push(gt(bookings.endTime, new Date(now)));
  if (query.when === "past") filters.push(lte(bookings.endTime, new Date(now)));
  const order = query.when === "past" ? [desc(bookings.startTime), desc(bookings.id)] : [asc(bookings.startTime), asc(bookings.id)];
  // The edges of the host's days, kept inside the instants PostgreSQL reads (9999-12-31 in a zone
  // west of UTC ends in the year 10000).
  const edge = (day: number) => new Date(clampInstant(zone.instantAtOrAfter(day * 1440)));
  if (query.from) filters.push(gte(bookings.startTime, edge(dayOfDate(query.from))));
  if (query.to) filters.push(lt(bookings.startTime, edge(dayOfDate(query.to) + 1)));
  const where = and(...filters);

  const [rows, [total]] = await Promise.all([
    db
      .select({ booking: bookings, eventType: { id: eventTypes.id, title: eventTypes.title } })
      .from(bookings)
      .innerJoin(eventTypes, eq(eventTypes.id, bookings.eventTypeId))
      .where(where)
      .orderBy(...order)
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ total: count() }).from(bookings).where(where),
  ]);
  const people = await loadBookingPeople(db, rows.map((r) => r.booking.id));
  return {
    data: rows.map((r) => toBooking(r.booking, r.eventType, people.get(r.booking.id)!)),
    pagination: { page: query.page, limit: query.limit, total: total?.total ?? 0 },
  };
}
