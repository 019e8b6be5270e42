import { and, asc, count, eq, gte, lt, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { bookings, eventTypes, type UserRow } from "@/db/schema";
import { toBooking, type BookingDto } from "@/lib/dto";
import type { BookingListQuery } from "@/lib/schemas/booking";
import { dayOfDate, ZoneOffsets } from "@/lib/slots";

/** GET /me/bookings: the host's bookings by start time; from/to are dates in the host's zone. */
export async function listBookings(
  db: Db,
  host: UserRow,
  query: z.output<typeof BookingListQuery>,
): Promise<{ data: BookingDto[]; pagination: { page: number; limit: number; total: number } }> {
  const zone = ZoneOffsets.of(host.timezone);
  const filters: (SQL | undefined)[] = [eq(bookings.hostId, host.id)];
  if (query.status) filters.push(eq(bookings.status, query.status));
  if (query.from) filters.push(gte(bookings.startTime, new Date(zone.instantAtOrAfter(dayOfDate(query.from) * 1440))));
  if (query.to) filters.push(lt(bookings.startTime, new Date(zone.instantAtOrAfter((dayOfDate(query.to) + 1) * 1440))));
  const where = and(...filters);

  const [rows, [total]] = await Promise.all([
    db
      .select({ booking: bookings, eventType: { id: eventTypes.id, title: eventTypes.title } })
      .from(bookings)
      .innerJoin(eventTypes, eq(eventTypes.id, bookings.eventTypeId))
      .where(where)
      .orderBy(asc(bookings.startTime), asc(bookings.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ total: count() }).from(bookings).where(where),
  ]);
  return {
    data: rows.map((r) => toBooking(r.booking, r.eventType)),
    pagination: { page: query.page, limit: query.limit, total: total?.total ?? 0 },
  };
}
