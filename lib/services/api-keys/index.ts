import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, asc, count, eq, isNull, lte, or } from "drizzle-orm";
import type { z } from "zod";
import type { Db, Tx } from "@/db";
import { apiKeys, users, type ApiKeyRow, type UserRow } from "@/db/schema";
import { AppError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { ApiScope, CreateApiKeyBody } from "@/lib/schemas/api-key";
import { lockName } from "@/lib/store/locks";

// API keys (decisions §18). A key is `bk_` and 32 random bytes (base64url); only its SHA-256 is
// stored (256 random bits cannot be searched back from a fast hash, as a password could), so no
// table, backup or log holds a working key. Each request reads its row: a deleted key is refused
// at once on every instance, with nothing to broadcast.

export const API_KEY_PREFIX = "bk_";
export const MAX_API_KEYS_PER_HOST = 50;
/** lastUsedAt is written at most this often per key: a busy integration costs no write per request. */
export const LAST_USED_GRANULARITY_MS = 60_000;

const DAY_MS = 86_400_000;

export const hashApiKey = (key: string) => createHash("sha256").update(key).digest("base64url");

/** Whether a bearer credential is shaped like an API key (rather than an access token). */
export const looksLikeApiKey = (credential: string) => credential.startsWith(API_KEY_PREFIX);

/** POST /me/api-keys: a new key, returned this once beside its row. */
export async function createApiKey(db: Db, host: UserRow, input: z.output<typeof CreateApiKeyBody>, now = Date.now()): Promise<{ row: ApiKeyRow; key: string }> {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  const row = await db.transaction(async (tx) => {
    // Creations of one host take turns, so the limit holds under concurrent requests.
    await lockName(tx, `api-keys:${host.id}`);
    const [existing] = await tx.select({ n: count() }).from(apiKeys).where(eq(apiKeys.userId, host.id));
    if ((existing?.n ?? 0) >= MAX_API_KEYS_PER_HOST) {
      throw new AppError("conflict", `At most ${MAX_API_KEYS_PER_HOST} API keys per account; revoke one first`);
    }
    const [made] = await tx
      .insert(apiKeys)
      .values({
        id: newId("key"),
        userId: host.id,
        name: input.name,
        scopes: input.scopes,
        prefix: key.slice(0, 8),
        keyHash: hashApiKey(key),
        createdAt: new Date(now),
        expiresAt: input.expiresInDays === undefined ? null : new Date(now + input.expiresInDays * DAY_MS),
      })
      .returning();
    return made!;
  });
  return { row, key };
}

/** GET /me/api-keys: the host's keys, oldest first (never the keys themselves). */
export function listApiKeys(db: Db, host: UserRow): Promise<ApiKeyRow[]> {
  return db.select().from(apiKeys).where(eq(apiKeys.userId, host.id)).orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
}

/** DELETE /me/api-keys/{id}: the key stops working at once; another host's key is not found. */
export async function revokeApiKey(db: Db, host: UserRow, keyId: string): Promise<void> {
  const gone = await db.delete(apiKeys).where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, host.id))).returning({ id: apiKeys.id });
  if (gone.length === 0) throw notFound("API key");
}

/** Ends every key of the account (a password reset by email: the account may have been taken). */
export async function revokeAllApiKeys(tx: Db | Tx, userId: string): Promise<void> {
  await tx.delete(apiKeys).where(eq(apiKeys.userId, userId));
}

export type KeyPrincipal = { user: UserRow; key: { id: string; scopes: ApiScope[] } };

/**
 * The host and scopes a key acts with, or an AppError 401: unknown (or revoked) and expired keys
 * are told apart, since a person fixing an integration needs to know which. lastUsedAt is
 * written when the one stored is a minute old or more.
 */
export async function authenticateApiKey(db: Db, key: string, now = Date.now()): Promise<KeyPrincipal> {
  const [found] = await db
    .select({ key: apiKeys, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, hashApiKey(key)))
    .limit(1);
  if (!found) throw new AppError("unauthorized", "The API key is not valid: it was revoked, or never existed");
  if (found.key.expiresAt && found.key.expiresAt.getTime() <= now) {
    throw new AppError("unauthorized", "The API key has expired; make a new one in Settings → API keys");
  }
  const lastUsed = found.key.lastUsedAt?.getTime();
  if (lastUsed === undefined || now - lastUsed >= LAST_USED_GRANULARITY_MS) {
    await db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(now) })
      // Of several requests at once, one writes.
      .where(and(eq(apiKeys.id, found.key.id), or(isNull(apiKeys.lastUsedAt), lte(apiKeys.lastUsedAt, new Date(now - LAST_USED_GRANULARITY_MS)))));
  }
  return { user: found.user, key: { id: found.key.id, scopes: found.key.scopes as ApiScope[] } };
}
