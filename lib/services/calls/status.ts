import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db";
import { calls, callStatuses, type CallRow, type CallStatus } from "@/db/schema";
import { notFound } from "@/lib/errors";

// Status callbacks may arrive late, twice or out of order (a `ringing` after the `completed`):
// a call's status only ever moves forward, and a final status is never replaced.
const STAGE: Record<CallStatus, number> = {
  requested: 0,
  queued: 1,
  initiated: 2,
  ringing: 3,
  "in-progress": 4,
  completed: 5,
  busy: 5,
  "no-answer": 5,
  canceled: 5,
  failed: 5,
};

/** POST /api/calls/webhook: the provider reports a call's status. Unknown call sid: 404. */
export async function recordCallStatus(
  db: Db,
  update: { callSid: string; status: CallStatus; error: string | undefined; now: number },
): Promise<CallRow> {
  const earlier = callStatuses.filter((s) => STAGE[s] < STAGE[update.status]);
  // Conditional, so two callbacks racing each other cannot move the status backwards.
  const [row] = await db
    .update(calls)
    .set({ status: update.status, ...(update.error ? { error: update.error } : {}), updatedAt: new Date(update.now) })
    .where(and(eq(calls.providerCallSid, update.callSid), inArray(calls.status, earlier)))
    .returning();
  if (row) return row;
  const [current] = await db.select().from(calls).where(eq(calls.providerCallSid, update.callSid)).limit(1);
  if (!current) throw notFound("Call");
  return current; // a repeated or stale callback: nothing to change
}
