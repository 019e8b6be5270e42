import "server-only";
import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import { getDb } from "@/lib/store/database";
import type { UserRow } from "@/db/schema";
import { hostOfSession } from "@/lib/services/accounts/sessions";
import { authOptions } from "./next-auth-options";

/**
 * The signed-in host, read afresh, or null: no session, an expired one, one ended by a sign-out
 * everywhere or a password change (its session version is no longer the account's), or an
 * account that no longer exists.
 */
export async function currentHost(): Promise<UserRow | null> {
  const session = await getServerSession(authOptions());
  const { userId, sessionVersion } = (session ?? {}) as { userId?: string; sessionVersion?: number | null };
  if (!userId) return null;
  return hostOfSession(await getDb(), { userId, sessionVersion });
}

/** For dashboard server components: the signed-in host, or a redirect to /login. */
export async function requireHost(): Promise<UserRow> {
  const user = await currentHost();
  if (user) return user;
  redirect("/login");
}
