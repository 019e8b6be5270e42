import "server-only";
import type { Tx } from "@/db";
import { pgErrorCode, runStatements, type Statement } from "@/db/client";

// Advisory locks and the retry of a transaction PostgreSQL aborted: the store's means of making
// writes take turns. The database's constraints stay the guarantee; these keep them quiet.

/** The statement of a transaction-scoped advisory lock on a name, for a pipeline (runStatements). */
export function nameLock(name: string): Statement {
  return { text: "select pg_advisory_xact_lock(hashtextextended($1::text, 0)) as locked", params: [name] };
}

/** A transaction-scoped advisory lock on a name: transactions holding the same name take turns. */
export async function lockName(tx: Tx, name: string): Promise<void> {
  await runStatements(tx)([nameLock(name)]);
}

/**
 * The team's row, locked for the transaction: membership, ownership and the hosts of its event
 * types change one writer at a time (two owners removing each other cannot leave the team without
 * one; a host cannot leave while an event type naming them is saved). writeForHosts sends it first.
 */
export function teamRowLock(teamId: string): Statement {
  return { text: "select id from teams where id = $1 for update", params: [teamId] };
}

/**
 * Makes booking writes of one host take turns (a transaction-scoped advisory lock). Without it,
 * overlapping inserts each wait for the other inside the exclusion constraint's check until
 * PostgreSQL aborts one as a deadlock; with it, the second one re-checks after the first has
 * committed and answers 409 at once. The constraint stays the guarantee; this keeps it quiet.
 * writeForHost sends it first in the transaction's pipeline.
 */
export function hostBookingsLock(hostId: string): Statement {
  return nameLock(`host-bookings:${hostId}`);
}

/**
 * Runs a booking transaction again when PostgreSQL aborted it to break a deadlock (40P01) or a
 * serialisation conflict (40001). Two inserts that overlap can each wait for the other inside
 * the exclusion constraint's check; the database then aborts one, and its retry re-checks the
 * slot and answers what is true now (usually 409, 201 if the other one failed).
 */
export async function retryOnDeadlock<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const code = pgErrorCode(error);
      if (attempt >= attempts || (code !== "40P01" && code !== "40001")) throw error;
    }
  }
}
