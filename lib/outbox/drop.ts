import "server-only";
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { outboxJobs } from "@/db/schema";

/**
 * Deletes a booking's jobs of `kinds` that have not started (pending): what a cancel does to its
 * reminders, and what a reschedule does to the reminders of the booking's older SEQUENCEs. A job
 * already running is left to finish; its handler checks the booking again and finds nothing to do.
 * Returns how many went.
 */
export async function dropPendingBookingJobs(
  db: Db | Tx,
  args: { kinds: readonly string[]; bookingId: string; belowSequence?: number },
): Promise<number> {
  const dropped = await db
    .delete(outboxJobs)
    .where(
      and(
        inArray(outboxJobs.kind, [...args.kinds]),
        eq(outboxJobs.status, "pending"),
        sql`${outboxJobs.payload}->>'bookingId' = ${args.bookingId}`,
        args.belowSequence === undefined ? undefined : lt(sql`(${outboxJobs.payload}->>'sequence')::int`, args.belowSequence),
      ),
    )
    .returning({ id: outboxJobs.id });
  return dropped.length;
}
