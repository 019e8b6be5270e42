import type { Db, Tx } from "@/db";
import { wakeJobWorker } from "@/lib/jobs/wake";
import { lockHostBookings, retryOnDeadlock } from "./booking-store";
import { invalidateHost } from "./schedule-cache";

/**
 * The one door for writes to what a host's slots are made of (hours, event types, bookings,
 * calendar busy time): one transaction, the host's booking lock when asked, a retry when
 * PostgreSQL broke a deadlock (40P01) or a serialisation conflict (40001), and the slot cache
 * of the host invalidated after the commit, on this instance and the others. A write that goes
 * through here cannot forget the cache; nothing is invalidated for a write that rolled back.
 * After the commit this process's job worker is woken too, so the outbox rows a booking change
 * wrote (webhooks, emails) go out at once rather than at the next poll.
 */
export async function writeForHost<T>(
  db: Db,
  hostId: string,
  work: (tx: Tx) => Promise<T>,
  options: { lockBookings?: boolean } = {},
): Promise<T> {
  const result = await retryOnDeadlock(() =>
    db.transaction(async (tx) => {
      if (options.lockBookings) await lockHostBookings(tx, hostId);
      return work(tx);
    }),
  );
  invalidateHost(hostId);
  wakeJobWorker();
  return result;
}
