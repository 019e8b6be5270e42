import "server-only";
import { createHmac } from "node:crypto";
import { decode } from "next-auth/jwt";
import { sessionVersionOf, type Bearer } from "./jwt";
import { getConfig } from "@/lib/config";
import { siteIsHttps } from "@/lib/links";

// The dashboard's session: next-auth v4, Credentials provider over the same credential check as
// POST /auth/login, JWT strategy (an encrypted, HttpOnly cookie: page JavaScript never holds a
// token). Nothing new to configure: the session secret is derived from JWT_SECRET, the public
// origin is APP_URL. The route wrapper accepts this cookie as well as a bearer token
// (lib/http/route.ts), so the dashboard uses exactly the API any other client uses.

/** The session cookie's key, derived from JWT_SECRET (a different key from the bearer tokens'). */
export function sessionSecret(): string {
  return createHmac("sha256", getConfig().jwtSecret).update("next-auth session v1").digest("base64url");
}

export function secureCookies(): boolean {
  return siteIsHttps();
}

/** next-auth's own cookie name: `__Secure-` prefixed (and Secure) when APP_URL is https. */
export function sessionCookieName(): string {
  return `${secureCookies() ? "__Secure-" : ""}next-auth.session-token`;
}

/** Who a valid, unexpired session cookie value speaks for, or null. */
export async function bearerOfSession(cookieValue: string): Promise<Bearer | null> {
  try {
    const token = await decode({ token: cookieValue, secret: sessionSecret() });
    const sessionVersion = sessionVersionOf(token?.sv);
    return typeof token?.sub === "string" && sessionVersion !== null ? { userId: token.sub, sessionVersion } : null;
  } catch {
    return null;
  }
}

/** The user id of a valid, unexpired session cookie value, or null (the version unchecked: a cheap first look). */
export async function userIdOfSession(cookieValue: string): Promise<string | null> {
  return (await bearerOfSession(cookieValue))?.userId ?? null;
}

/** The names of the session cookie's parts a Cookie header carries (the whole one, or its chunks). */
export function sessionCookieNamesIn(cookieHeader: string | null): string[] {
  const name = sessionCookieName();
  const names = (cookieHeader ?? "").split(";").map((part) => part.slice(0, Math.max(0, part.indexOf("="))).trim());
  return [...new Set(names.filter((n) => n === name || (n.startsWith(`${name}.`) && /^\d+$/.test(n.slice(name.length + 1)))))];
}

/** The session cookie's value from a Cookie header (next-auth splits big ones into .0, .1 …). */
export function sessionCookieOf(cookieHeader: string | null): string | undefined {
  if (!cookieHeader) return undefined;
  const name = sessionCookieName();
  const cookies = new Map<string, string>();
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) cookies.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const whole = cookies.get(name);
  if (whole) return whole;
  const chunks: string[] = [];
  for (let i = 0; cookies.has(`${name}.${i}`); i++) chunks.push(cookies.get(`${name}.${i}`)!);
  return chunks.length > 0 ? chunks.join("") : undefined;
}
