import "server-only";
import type { Db } from "@/db";
import type { UserRow } from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";
import { AppError, validationError } from "@/lib/errors";
import { endSessionsAndLinks } from "./credential-links";
import { loginResult } from "./log-in";
import { logInGuarded } from "./login-guard";

// Bearer tokens and dashboard sessions are stateless JWTs: each carries the account's session
// version at issue (`sv`), and the route wrapper and the dashboard refuse one whose version is
// no longer the account's. Raising the version is how they all end at once, and with them the
// account's unused email change and reset links (credential-links.ts).

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
