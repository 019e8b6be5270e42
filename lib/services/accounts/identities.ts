import "server-only";
import { and, asc, count, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { userIdentities, users, type UserIdentityRow, type UserRow } from "@/db/schema";
import { getConfig } from "@/lib/config";
import { toIdentity } from "@/lib/dto";
import { AppError, notFound } from "@/lib/errors";
import { lockAccount } from "./credential-links";

// GET /me/identities and DELETE /me/identities/{id}: the host's linked company sign-ins
// (decisions §22). Unlinking never leaves an account without a way in.

export async function listIdentities(db: Db, host: Pick<UserRow, "id">): Promise<UserIdentityRow[]> {
  return db.select().from(userIdentities).where(eq(userIdentities.userId, host.id)).orderBy(asc(userIdentities.createdAt), asc(userIdentities.id));
}

/** GET /me/identities' answer: the identities, whether the account has a password, what this server offers. */
export async function identityListOf(db: Db, host: Pick<UserRow, "id" | "passwordHash">) {
  const { oidc, passwordLogin } = getConfig();
  const provider = oidc?.name ?? "Company sign-in";
  return {
    data: (await listIdentities(db, host)).map((i) => toIdentity(i, provider)),
    hasPassword: host.passwordHash !== null,
    passwordLogin,
    oidc: oidc ? { name: oidc.name } : null,
  };
}

/**
 * Removes one of the host's identities: 404 for one that is not theirs, 409 when it is the last
 * way in (no password, or passwords turned off on this server, and no other identity). The
 * account's row is taken first, so two unlinks at once cannot each leave the other as the last.
 */
export async function unlinkIdentity(db: Db, host: Pick<UserRow, "id">, identityId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockAccount(tx, host.id);
    const [row] = await tx
      .select({ id: userIdentities.id })
      .from(userIdentities)
      .where(and(eq(userIdentities.id, identityId), eq(userIdentities.userId, host.id)));
    if (!row) throw notFound("Identity");
    const [account] = await tx.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, host.id));
    const passwordWorks = Boolean(account?.passwordHash) && getConfig().passwordLogin;
    const [{ n }] = (await tx.select({ n: count() }).from(userIdentities).where(eq(userIdentities.userId, host.id))) as [{ n: number }];
    if (!passwordWorks && n <= 1) throw new AppError("conflict", lastWayInMessage(Boolean(account?.passwordHash)), { reason: "last_sign_in" });
    await tx.delete(userIdentities).where(eq(userIdentities.id, row.id));
  });
}

function lastWayInMessage(hasPassword: boolean): string {
  const name = getConfig().oidc?.name ?? "company sign-in";
  return hasPassword
    ? `This is your only way to sign in: passwords are turned off on this server, so ${name} cannot be unlinked`
    : `This is your only way to sign in: set a password first (“Forgot your password?” on the login page sends a link), then unlink ${name}`;
}
