import "server-only";
import { and, asc, eq, lte } from "drizzle-orm";
import type { Db } from "@/db";
import { bookings } from "@/db/schema";
import { markCancelled } from "./cancel";
import { SYSTEM } from "./history";

const BATCH = 100;

/**
 * A request nobody answered before its start is cancelled by the service (decisions §16):
 * cancelledBy system, no reason, its history entry and booking.cancelled (the guest and the hosts
 * are told). Run by the housekeeping loop with its clock; each cancel is conditional on the
 * booking still being pending, so instances sweeping at once, or a host confirming at that
 * moment, never cancel one twice or undo a confirm. Returns how many it cancelled.
 */
export async function expireUnconfirmedBookings(db: Db, now: number): Promise<number> {
  let expired = 0;
  for (;;) {
    const due = await db
      .select()
      .from(bookings)
      .where(and(eq(bookings.status, "pending"), lte(bookings.startTime, new Date(now))))
      .orderBy(asc(bookings.startTime), asc(bookings.id))
      .limit(BATCH);
    for (const booking of due) {
      if ((await markCancelled(db, booking, SYSTEM, null, now, { only: "pending" })).changed) expired += 1;
    }
    if (due.length < BATCH) return expired;
  }
}
