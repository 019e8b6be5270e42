import { createHash } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { idempotencyKeys } from "@/db/schema";
import { AppError } from "@/lib/errors";

// Idempotency-Key (decisions §8). The key is claimed by inserting its row INSIDE the transaction
// that makes the change, and the answer is stored by that same transaction: a committed booking
// always has its stored answer, and a request that failed or whose process died leaves no claim
// behind (the rollback takes it), so its key can be used again at once. A second request with the
// same key while the first is running waits on the key's unique index, then replays its answer.

const TTL_MS = 24 * 3_600_000;

export type Claim = { scope: string; key: string };
export type StoredResponse = { status: number; body: unknown };

/** The hash two requests must share to be "the same request". */
export function requestHash(parts: unknown): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

const sameKey = (claim: Claim) => and(eq(idempotencyKeys.scope, claim.scope), eq(idempotencyKeys.key, claim.key));

/** What a stored row answers for a request with `hash`: its response, or 422 for another request. */
function answerOf(row: typeof idempotencyKeys.$inferSelect, hash: string): StoredResponse {
  if (row.requestHash !== hash) throw new AppError("idempotency_key_mismatch", "This Idempotency-Key was already used with a different request");
  if (row.responseStatus === null) {
    // Only rows written before claims moved into the transaction can lack an answer.
    throw new AppError("idempotency_key_in_use", "A request with this Idempotency-Key is still being processed; retry shortly", { retryAfterSeconds: 1 });
  }
  return { status: row.responseStatus, body: row.responseBody };
}

/** A finished request's answer for this key, read before any other work (a replay needs nothing else). */
export async function findStoredAnswer(db: Db, claim: Claim, hash: string, now: number): Promise<StoredResponse | undefined> {
  const [row] = await db.select().from(idempotencyKeys).where(sameKey(claim)).limit(1);
  if (!row || row.expiresAt.getTime() <= now) return undefined;
  return answerOf(row, hash);
}

/**
 * Claims the key inside the caller's transaction, or answers for it: the stored response of a
 * request that committed first (a replay), or 422 for another request.
 */
export async function claimIdempotencyKey(tx: Tx, claim: Claim, hash: string, now: number): Promise<{ replay: StoredResponse } | { claimed: true }> {
  // Past its 24 hours, a key is free again.
  await tx.delete(idempotencyKeys).where(and(sameKey(claim), lt(idempotencyKeys.expiresAt, new Date(now + 1))));
  const inserted = await tx
    .insert(idempotencyKeys)
    .values({ ...claim, requestHash: hash, createdAt: new Date(now), expiresAt: new Date(now + TTL_MS) })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length > 0) {
    // Now and then, sweep keys past their 24 hours so the table stays the size of one day.
    if (Math.random() < 0.01) await tx.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, new Date(now)));
    return { claimed: true };
  }
  // The insert waited for the transaction holding the key; it committed, so its row is visible.
  const [row] = await tx.select().from(idempotencyKeys).where(sameKey(claim)).limit(1);
  if (!row) throw new AppError("idempotency_key_in_use", "A request with this Idempotency-Key is still being processed; retry shortly", { retryAfterSeconds: 1 });
  return { replay: answerOf(row, hash) };
}

/** Stores the response, inside the transaction that made the change. */
export async function finishIdempotentRequest(tx: Tx, claim: Claim, response: StoredResponse): Promise<void> {
  await tx.update(idempotencyKeys).set({ responseStatus: response.status, responseBody: response.body }).where(sameKey(claim));
}
