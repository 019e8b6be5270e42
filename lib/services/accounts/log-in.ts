import "server-only";
import type { Db } from "@/db";
import type { UserRow } from "@/db/schema";
import { signAccessToken } from "@/lib/auth/jwt";
import { logInGuarded } from "./login-guard";
import { requirePasswordLogin } from "./password-policy";

/** POST /auth/login: a bearer token for the host, with failed attempts limited per client address. */
export async function logIn(db: Db, input: { email: string; password: string }, clientAddress: string) {
  requirePasswordLogin();
  return loginResult(await logInGuarded(db, input, clientAddress));
}

/** A new bearer token for the user, under the account's current session version. */
export async function loginResult(user: UserRow) {
  const { token, expiresIn } = await signAccessToken(user.id, user.sessionVersion);
  return {
    accessToken: token,
    expiresIn,
    tokenType: "Bearer" as const,
    user: { id: user.id, email: user.email, username: user.username, timezone: user.timezone },
  };
}
