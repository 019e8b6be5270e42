import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { users, type UserRow } from "@/db/schema";
import { signAccessToken } from "@/lib/auth/jwt";
import { burnPasswordCheck, verifyPassword } from "@/lib/auth/password";
import { AppError } from "@/lib/errors";
import { logInGuarded } from "./login-guard";

/**
 * The host whose email and password these are, or 401. Both ways of logging in use it: the API's
 * bearer token (logIn) and the dashboard's session (lib/auth/session.ts).
 */
export async function verifyCredentials(db: Db, input: { email: string; password: string }): Promise<UserRow> {
  const [user] = await db.select().from(users).where(eq(users.email, input.email)).limit(1);
  // Unknown email and wrong password answer alike, in about the same time.
  if (!user) {
    await burnPasswordCheck(input.password);
    throw new AppError("unauthorized", "The email or password is incorrect");
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    throw new AppError("unauthorized", "The email or password is incorrect");
  }
  return user;
}

/** POST /auth/login: a bearer token for the host, with failed attempts limited per client address. */
export async function logIn(db: Db, input: { email: string; password: string }, clientAddress: string) {
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
