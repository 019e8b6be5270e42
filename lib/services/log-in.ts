import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { users } from "@/db/schema";
import { signAccessToken } from "@/lib/auth/jwt";
import { burnPasswordCheck, verifyPassword } from "@/lib/auth/password";
import { AppError } from "@/lib/http/errors";

export async function logIn(db: Db, input: { email: string; password: string }) {
  const [user] = await db.select().from(users).where(eq(users.email, input.email)).limit(1);
  // Unknown email and wrong password answer alike, in about the same time.
  if (!user) {
    await burnPasswordCheck(input.password);
    throw new AppError("unauthorized", "The email or password is incorrect");
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    throw new AppError("unauthorized", "The email or password is incorrect");
  }
  const { token, expiresIn } = await signAccessToken(user.id);
  return {
    accessToken: token,
    expiresIn,
    tokenType: "Bearer" as const,
    user: { id: user.id, email: user.email, username: user.username, timezone: user.timezone },
  };
}
