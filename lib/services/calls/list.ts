import "server-only";
import { and, count, desc, eq, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { calls, type UserRow } from "@/db/schema";
import { toCall, type CallDto } from "@/lib/dto";
import type { CallListQuery } from "@/lib/schemas/calls";

/** GET /me/calls: the host's calls, newest first, paged like /me/bookings. */
export async function listCalls(
  db: Db,
  host: UserRow,
  query: z.output<typeof CallListQuery>,
): Promise<{ data: CallDto[]; pagination: { page: number; limit: number; total: number } }> {
  const filters: (SQL | undefined)[] = [eq(calls.hostId, host.id)];
  if (query.bookingId) filters.push(eq(calls.bookingId, query.bookingId));
  const where = and(...filters);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(calls)
      .where(where)
      .orderBy(desc(calls.createdAt), desc(calls.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ total: count() }).from(calls).where(where),
  ]);
  return { data: rows.map(toCall), pagination: { page: query.page, limit: query.limit, total: total?.total ?? 0 } };
}
