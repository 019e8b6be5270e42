import "server-only";
import { eq, inArray } from "drizzle-orm";
import type { Db } from "@/db";
import { users, type UserRow } from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";
import { AppError, validationError } from "@/lib/errors";
import { noPasswordYet, requirePasswordLogin } from "./password-policy";
import { endSessionsAndLinks } from "./credential-links";
import { loginResult } from "./log-in";
import { logInGuarded } from "./login-guard";

// Bearer tokens and dashboard sessions are stateless JWTs: each carries the account's session
// version at issue (`sv`), and the route wrapper and the dashboard refuse one whose version is
// no longer the account's. Raising the version is how they all end at once, and with them the
// account's unused email change and reset links (credential-links.ts).

/**
 * The host a token or a dashboard session speaks for, read afresh, or null: an account that no
 * longer exists, or a token issued before its last sign-out everywhere or password change (its
 * session version is no longer the account's).
 */
export async function hostOfSession(db: Db, session: { userId: string; sessionVersion: number | null | undefined }): Promise<UserRow | null> {
  const [user] = await db.select().from(users).where(eq(users.id, session.userId)).limit(1);
  return user && user.sessionVersion === session.sessionVersion ? user : null;
}

/** Accounts whose username has since become a path of the app (their /<username> page is shadowed). */
export async function shadowedUsernames(db: Db, reserved: Iterable<string>): Promise<string[]> {
  const rows = await db.select({ username: users.username }).from(users).where(inArray(users.username, [...reserved]));
  return rows.map((r) => r.username);
}

/** POST /auth/logout: every token, session and credential link of the account ends, this one too. */
export async function signOutEverywhere(db: Db, host: Pick<UserRow, "id">): Promise<void> {
  await db.transaction((tx) => endSessionsAndLinks(tx, host.id));
}

/**
 * POST /me/password: the current password is checked like a login (the same per-address
 * limits, so a stolen session cannot guess it), then the new one is stored and every earlier
 * token, session, pending email change and reset link ends. The caller gets a fresh token to go on with.
 */
export async function changePassword(
  db: Db,
  host: UserRow,
  input: { currentPassword: string; newPassword: string },
  clientAddress: string,
) {
  requirePasswordLogin();
  // A host who came through OIDC has no password to confirm: a stolen session must not be able to
  // set one, so the first password comes through the emailed reset link, which proves the inbox.
  if (!host.passwordHash) throw noPasswordYet("currentPassword", "The password was not changed");
  try {
    await logInGuarded(db, { email: host.email, password: input.currentPassword }, clientAddress);
  } catch (error) {
    if (error instanceof AppError && error.code === "unauthorized") {
      throw validationError([{ path: "currentPassword", message: "The current password is incorrect" }], "The password was not changed");
    }
    throw error;
  }
  const passwordHash = await hashPassword(input.newPassword);
  const updated = await db.transaction((tx) => endSessionsAndLinks(tx, host.id, { passwordHash }));
  return loginResult(updated!);
}
