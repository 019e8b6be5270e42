import "server-only";
import type { Db, Tx } from "@/db";
import { runStatements } from "@/db/client";
import { wakeJobWorker } from "@/lib/outbox/wake";
import { hostBookingsLock, retryOnDeadlock, teamRowLock } from "@/lib/store/locks";
import { invalidateHost, scheduleChangeNotice } from "./cache";

/** Adds hosts (or a team) whose slots a write changed, found while writing: their caches go too. */
export type TouchHosts = (ids: Iterable<string>) => void;

export type HostWriteOptions = {
  /** Take each host's booking lock (bookings, and what a booking re-checks, take turns per host). */
  lockBookings?: boolean;
  /**
   * Write as this team: its row is locked first (membership and its event types' hosts change
   * one writer at a time), and what is cached of the team's own (its public event types, its slot
   * lists) is retired with the hosts'.
   */
  teamId?: string;
};

/**
 * The one door for writes to what a host's slots are made of (hours, event types, bookings,
 * calendar busy time, a team's members): one transaction, the team's row lock and the hosts'
 * booking locks when asked (hosts in one order, by id, so two such writes never wait on each
 * other crosswise), a retry when PostgreSQL broke a deadlock (40P01) or a serialisation
 * conflict (40001), and the slot cache of every host touched invalidated: other instances by a
 * NOTIFY that PostgreSQL delivers at the commit, this one after the commit. A write that goes
 * through here cannot forget the cache; nothing is invalidated for a write that rolled back.
 * Hosts known only once the write has read something (a team event type's hosts) are added with
 * `touch`. After the commit this process's job worker is woken too, so the outbox rows a change
 * wrote (webhooks, emails) go out at once rather than at the next poll.
 */
export async function writeForHosts<T>(
  db: Db,
  hostIds: readonly string[],
  work: (tx: Tx, touch: TouchHosts) => Promise<T>,
  options: HostWriteOptions = {},
): Promise<T> {
  const hosts = [...new Set(hostIds)].sort();
  const keys = options.teamId ? [options.teamId, ...hosts] : hosts;
  let touched = new Set<string>();
  const result = await retryOnDeadlock(() =>
    db.transaction(async (tx) => {
      touched = new Set(keys);
      // The locks and the notices go out first and `work`'s statements behind them on the same
      // connection, without waiting: the server runs them in that order, so everything `work`
      // reads is read under the locks (runStatements).
      const first = runStatements(tx)([
        ...(options.teamId ? [teamRowLock(options.teamId)] : []),
        ...(options.lockBookings ? hosts.map(hostBookingsLock) : []),
        ...keys.map(scheduleChangeNotice),
      ]);
      const more = new Set<string>();
      const touch: TouchHosts = (ids) => {
        for (const id of ids) {
          if (touched.has(id)) continue;
          touched.add(id);
          more.add(id);
        }
      };
      // Both settle before the transaction ends (nothing of `work` may run after its rollback);
      // a failed lock is the cause of whatever failed after it.
      const [sent, done] = await Promise.allSettled([first, work(tx, touch)]);
      if (sent.status === "rejected") throw sent.reason;
      if (done.status === "rejected") throw done.reason;
      if (more.size > 0) await runStatements(tx)([...more].map(scheduleChangeNotice));
      return done.value;
    }),
  );
  for (const id of touched) invalidateHost(id);
  wakeJobWorker();
  return result;
}

/** writeForHosts for one host's own write (their hours, schedules, event types, calendars). */
export async function writeForHost<T>(
  db: Db,
  hostId: string,
  work: (tx: Tx) => Promise<T>,
  options: { lockBookings?: boolean } = {},
): Promise<T> {
  return writeForHosts(db, [hostId], (tx) => work(tx), options);
}
