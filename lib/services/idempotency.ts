import { createHash } from "node:crypto";
import { and, eq, isNull, lt } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { idempotencyKeys } from "@/db/schema";
import { AppError } from "@/lib/http/errors";

// Idempotency-Key (decisions §8). A key is claimed by inserting its row; the response is stored
// by the same transaction that makes the change (finishIdempotentRequest), so a committed
// booking always has its stored answer and a crash in between leaves nothing half-done.

const TTL_MS = 24 * 3_600_000;
// A claim whose request never finished (its process died) is taken over after this long.
const ABANDONED_AFTER_MS = 60_000;

export type Claim = { scope: string; key: string };
export type StoredResponse = { status: number; body: unknown };

/** The hash two requests must share to be "the same request". */
export function requestHash(parts: unknown): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

/**
 * Claims `key` for this request, or answers for it: the stored response of a finished request
 * with the same hash (a replay), 422 for another hash, 409 while the first is still running.
 */
export async function claimIdempotencyKey(
  db: Db,
  claim: Claim,
  hash: string,
  now: number,
): Promise<{ replay: StoredResponse } | { claimed: true }> {
  const expiresAt = new Date(now + TTL_MS);
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ ...claim, requestHash: hash, createdAt: new Date(now), expiresAt })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length > 0) {
      // Now and then, sweep keys past their 24 hours so the table stays the size of one day.
      if (Math.random() < 0.01) await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, new Date(now)));
      return { claimed: true };
    }

    const [existing] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.scope, claim.scope), eq(idempotencyKeys.key, claim.key)))
      .limit(1);
    if (!existing) continue; // released in between: try to claim again
    if (existing.expiresAt.getTime() <= now) {
      await db
        .delete(idempotencyKeys)
        .where(and(eq(idempotencyKeys.scope, claim.scope), eq(idempotencyKeys.key, claim.key), lt(idempotencyKeys.expiresAt, new Date(now + 1))));
      continue;
    }
    if (existing.requestHash !== hash) {
      throw new AppError("idempotency_key_mismatch", "This Idempotency-Key was already used with a different request");
    }
    if (existing.responseStatus !== null) return { replay: { status: existing.responseStatus, body: existing.responseBody } };
    if (existing.createdAt.getTime() > now - ABANDONED_AFTER_MS) {
      throw new AppError("idempotency_key_in_use", "A request with this Idempotency-Key is still being processed; retry shortly", {}, { "retry-after": "1" });
    }
    // The first request was abandoned mid-way (nothing was committed with it): take it over.
    const taken = await db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(now), expiresAt })
      .where(
        and(
          eq(idempotencyKeys.scope, claim.scope),
          eq(idempotencyKeys.key, claim.key),
          isNull(idempotencyKeys.responseStatus),
          lt(idempotencyKeys.createdAt, new Date(now - ABANDONED_AFTER_MS)),
        ),
      )
      .returning({ key: idempotencyKeys.key });
    if (taken.length > 0) return { claimed: true };
  }
  throw new AppError("idempotency_key_in_use", "A request with this Idempotency-Key is still being processed; retry shortly", {}, { "retry-after": "1" });
}

/** Stores the response, inside the transaction that made the change. */
export async function finishIdempotentRequest(tx: Tx, claim: Claim, response: StoredResponse): Promise<void> {
  await tx
    .update(idempotencyKeys)
    .set({ responseStatus: response.status, responseBody: response.body })
    .where(and(eq(idempotencyKeys.scope, claim.scope), eq(idempotencyKeys.key, claim.key)));
}

/** Frees a claim whose request failed, so the key can be used again (errors are not stored). */
export async function releaseIdempotencyKey(db: Db, claim: Claim): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, claim.scope), eq(idempotencyKeys.key, claim.key), isNull(idempotencyKeys.responseStatus)));
}
