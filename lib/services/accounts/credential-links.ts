import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { emailChanges, passwordResets, users, type UserRow } from "@/db/schema";

// Whoever once knew the password must keep no way back in. An email change waiting for its
// confirmation and an unused password-reset link stand for the credentials they were asked
// with, so they end whenever the credentials change: a new password (in settings or by a
// reset), signing out everywhere, and a confirmed change of address (a reset link mailed to
// the old address must not outlive it). Every verb that changes credentials does it here,
// inside its own transaction, after taking the account's row (always first: one lock order).

type Conn = Db | Tx;

/**
 * Takes the account's row for the rest of the transaction. Every credential verb takes it
 * before touching the account's links, so two of them at once wait for each other instead of
 * deadlocking on the links. (NO KEY UPDATE: inserting a link, whose foreign key takes KEY SHARE
 * on the row, is not held up.) Undefined when the account is gone.
 */
export async function lockAccount(tx: Conn, userId: string): Promise<Pick<UserRow, "sessionVersion"> | undefined> {
  const [row] = await tx.select({ sessionVersion: users.sessionVersion }).from(users).where(eq(users.id, userId)).for("no key update");
  return row;
}

/** Ends every unused email change and password-reset link of the account. */
export async function endCredentialLinks(tx: Conn, userId: string): Promise<void> {
  await tx.delete(emailChanges).where(and(eq(emailChanges.userId, userId), isNull(emailChanges.usedAt)));
  await tx.delete(passwordResets).where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

/**
 * Ends every bearer token, dashboard session and credential link of the account at once, and
 * stores `changes` (a new password hash) with it: sign-out everywhere, a password change and a
 * password reset. Tokens are stateless, so raising the session version is what ends them.
 */
export async function endSessionsAndLinks(
  tx: Conn,
  userId: string,
  changes: { passwordHash?: string | null; emailVerified?: boolean } = {},
  now = new Date(),
): Promise<UserRow | undefined> {
  await lockAccount(tx, userId);
  const [updated] = await tx
    .update(users)
    .set({ ...changes, sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: now })
    .where(eq(users.id, userId))
    .returning();
  await endCredentialLinks(tx, userId);
  return updated;
}
