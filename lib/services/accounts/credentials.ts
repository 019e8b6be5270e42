import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { users, type UserRow } from "@/db/schema";
import { burnPasswordCheck, verifyPassword } from "@/lib/auth/password";
import { AppError } from "@/lib/errors";

/**
 * The host whose email and password these are, or 401. Both ways of logging in use it: the API's
 * bearer token (logIn) and the dashboard's session (lib/auth/session.ts).
 */
export async function verifyCredentials(db: Db, input: { email: string; password: string }): Promise<UserRow> {
  const [user] = await db.select().from(users).where(eq(users.email, input.email)).limit(1);
  // Unknown email, an account without a password (it came through OIDC, decisions §22) and a
  // wrong password answer alike, in about the same time.
  if (!user?.passwordHash) {
    await burnPasswordCheck(input.password);
    throw new AppError("unauthorized", "The email or password is incorrect");
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    throw new AppError("unauthorized", "The email or password is incorrect");
  }
  return user;
}
