import "server-only";
import { createHash } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { runStatements } from "@/db/client";
import { idempotencyKeys } from "@/db/schema";
import { AppError } from "@/lib/errors";

// Idempotency-Key (decisions §8). The key is claimed by inserting its row INSIDE the transaction
// that makes the change, and the answer is stored by that same transaction: a committed booking
// always has its stored answer, and a request that failed or whose process died leaves no claim
// behind (the rollback takes it), so its key can be used again at once. A second request with the
// same key while the first is running waits on the key's unique index, then replays its answer.
// The answer itself is stored by the statement that inserts the booking (booking-commit.ts).

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

/**
 * What a key's row answers for a request with `hash` at `now`: nothing when there is no row or
 * it has expired, else its stored response (or 422 for another request).
 */
export function storedAnswerOf(row: typeof idempotencyKeys.$inferSelect | null | undefined, hash: string, now: number): StoredResponse | undefined {
  if (!row || row.expiresAt.getTime() <= now) return undefined;
  return answerOf(row, hash);
}

/** A finished request's answer for this key, read before any other work (a replay needs nothing else). */
export async function findStoredAnswer(db: Db, claim: Claim, hash: string, now: number): Promise<StoredResponse | undefined> {
  const [row] = await db.select().from(idempotencyKeys).where(sameKey(claim)).limit(1);
  return storedAnswerOf(row, hash, now);
}

// The claim in one statement: a new row, or the row of a key past its 24 hours taken over (as
// if deleted first). A row being written by a transaction still running makes the insert wait
// for it: if that one commits, nothing is returned and the caller replays its answer; if it
// rolls back, the key is claimed here.
const CLAIM_SQL = `
insert into idempotency_keys as k (scope, key, request_hash, response_status, response_body, created_at, expires_at)
values ($1::text, $2::text, $3::text, null, null, $4::text::timestamptz, $5::text::timestamptz)
on conflict (scope, key) do update
  set request_hash = excluded.request_hash, response_status = null, response_body = null,
      created_at = excluded.created_at, expires_at = excluded.expires_at
  where k.expires_at <= excluded.created_at
returning 1 as claimed`;

export type ClaimOutcome = { replay: StoredResponse } | { claimed: true };

/**
 * Claims the key inside the caller's transaction, or answers for it: the stored response of a
 * request that committed first (a replay), or 422 for another request. The claim is sent at
 * once (the caller may send more statements behind it before awaiting).
 */
export async function claimIdempotencyKey(tx: Tx, claim: Claim, hash: string, now: number): Promise<ClaimOutcome> {
  const [inserted] = await runStatements(tx)<[{ claimed: number }[]]>([
    { text: CLAIM_SQL, params: [claim.scope, claim.key, hash, new Date(now).toISOString(), new Date(now + TTL_MS).toISOString()] },
  ]);
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
