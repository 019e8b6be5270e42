import "server-only";
import type { Db, Tx } from "@/db";
import { writeForHosts } from "@/lib/services/host-time/writes";
import { loadBookingPeople, type BookingPeople } from "./people";

/** Hosts can change under us only by a round-robin move; a few tries are always enough. */
const ATTEMPTS = 5;

/**
 * Changes bookings under the booking locks of every one of their hosts, held to the commit
 * (writeForHosts, lockBookings). The database stamps each change with its clock (bookings_stamp,
 * migration 0027); with the locks, a host's changes are stamped in the order they commit, which
 * is what lets a client walk a host's changes without missing one (changes.ts). A change made
 * without them could be stamped before another host's change that commits first, and a walk
 * that already passed that time would never see it.
 *
 * The hosts are read before the locks (to know which to take) and again under them: a round-robin
 * move may have given a booking to another host meanwhile. Then the transaction ends without a
 * write and runs again with the hosts it found. `work` gets each booking's people as read under
 * the locks; a booking gone by then is not in the map.
 */
export async function writeBookings<T>(db: Db, bookingIds: readonly string[], work: (tx: Tx, people: Map<string, BookingPeople>) => Promise<T>): Promise<T> {
  let hostIds = hostsOf(await loadBookingPeople(db, [...bookingIds]));
  for (let attempt = 1; ; attempt++) {
    const locked = new Set(hostIds);
    const done = await writeForHosts(
      db,
      hostIds,
      async (tx) => {
        const people = await loadBookingPeople(tx, [...bookingIds]);
        const now = hostsOf(people);
        if (now.some((id) => !locked.has(id))) return { done: false as const, again: now };
        return { done: true as const, value: await work(tx, people) };
      },
      { lockBookings: true },
    );
    if (done.done) return done.value;
    if (attempt >= ATTEMPTS) throw new Error(`bookings ${bookingIds.join(", ")}: their hosts kept changing while being locked`);
    hostIds = [...new Set([...hostIds, ...done.again])];
  }
}

/** writeBookings for one booking; `people` is its people under the locks (none if it is gone). */
export async function writeBooking<T>(db: Db, bookingId: string, work: (tx: Tx, people: BookingPeople) => Promise<T>): Promise<T> {
  return writeBookings(db, [bookingId], (tx, people) => work(tx, people.get(bookingId) ?? { hosts: [], team: null }));
}

function hostsOf(people: Map<string, BookingPeople>): string[] {
  return [...new Set([...people.values()].flatMap((p) => p.hosts.map((h) => h.userId)))];
}
