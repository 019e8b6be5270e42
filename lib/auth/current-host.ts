import { eq } from "drizzle-orm";
import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import { getDb } from "@/db";
import { users, type UserRow } from "@/db/schema";
import { authOptions } from "./session";

/**
 * For dashboard server components: the signed-in host, read afresh, or a redirect to /login (no
 * session, an expired one, or an account that no longer exists).
 */
export async function requireHost(): Promise<UserRow> {
  const session = await getServerSession(authOptions());
  const userId = (session as { userId?: string } | null)?.userId;
  if (userId) {
    const [user] = await (await getDb()).select().from(users).where(eq(users.id, userId)).limit(1);
    if (user) return user;
  }
  redirect("/login");
}
