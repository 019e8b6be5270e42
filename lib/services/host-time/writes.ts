import "server-only";
import type { Db, Tx } from "@/db";
import { runStatements } from "@/db/client";
import { wakeJobWorker } from "@/lib/outbox/wake";
import { hostBookingsLock, retryOnDeadlock } from "@/lib/store/locks";
import { invalidateHost, scheduleChangeNotice } from "./cache";

/**
 * The one door for writes to what a host's slots are made of (hours, event types, bookings,
 * calendar busy time): one transaction, the host's booking lock when asked, a retry when
 * PostgreSQL broke a deadlock (40P01) or a serialisation conflict (40001), and the slot cache
 * of the host invalidated: other instances by a NOTIFY that PostgreSQL delivers at the commit,
 * this one after the commit. A write that goes through here cannot forget the cache; nothing is
 * invalidated for a write that rolled back. After the commit this process's job worker is woken
 * too, so the outbox rows a booking change wrote (webhooks, emails) go out at once rather than
 * at the next poll.
 */
export async function writeForHost<T>(
  db: Db,
  hostId: string,
  work: (tx: Tx) => Promise<T>,
  options: { lockBookings?: boolean } = {},
): Promise<T> {
  return writeForHosts(db, [hostId], work, options);
}

/**
 * writeForHost for a write that changes several hosts' time at once (a team booking, its move or
 * its cancel): every host's lock, taken in one order (by id) so two such writes never wait on
 * each other crosswise, and every host's cache invalidated.
 */
export async function writeForHosts<T>(
  db: Db,
  hostIds: readonly string[],
  work: (tx: Tx) => Promise<T>,
  options: { lockBookings?: boolean } = {},
): Promise<T> {
  const hosts = [...new Set(hostIds)].sort();
  const result = await retryOnDeadlock(() =>
    db.transaction(async (tx) => {
      // The locks and the notices go out first and `work`'s statements behind them on the same
      // connection, without waiting: the server runs them in that order, so everything `work`
      // reads is read under the locks (runStatements).
      const first = runStatements(tx)([
        ...(options.lockBookings ? hosts.map(hostBookingsLock) : []),
        ...hosts.map(scheduleChangeNotice),
      ]);
      // Both settle before the transaction ends (nothing of `work` may run after its rollback);
      // a failed lock is the cause of whatever failed after it.
      const [sent, done] = await Promise.allSettled([first, work(tx)]);
      if (sent.status === "rejected") throw sent.reason;
      if (done.status === "rejected") throw done.reason;
      return done.value;
    }),
  );
  for (const hostId of hosts) invalidateHost(hostId);
  wakeJobWorker();
  return result;
}
