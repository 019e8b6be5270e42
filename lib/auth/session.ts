import { createHmac } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import { decode } from "next-auth/jwt";
import { sessionVersionOf, type Bearer } from "./jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "@/db";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { LoginBody } from "@/lib/schemas/account";
import { clientIp } from "@/lib/http/client-ip";
import { logInGuarded } from "@/lib/services/accounts/login-guard";
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

function secureCookies(): boolean {
  return siteIsHttps();
}

/** next-auth's own cookie name: `__Secure-` prefixed (and Secure) when APP_URL is https. */
export function sessionCookieName(): string {
  return `${secureCookies() ? "__Secure-" : ""}next-auth.session-token`;
}

export function authOptions(): NextAuthOptions {
  const config = getConfig();
  // next-auth builds its callback and redirect URLs from NEXTAUTH_URL: the service's APP_URL.
  process.env.NEXTAUTH_URL ??= config.appUrl;
  return {
    secret: sessionSecret(),
    session: { strategy: "jwt", maxAge: config.jwtExpiresIn },
    useSecureCookies: secureCookies(),
    pages: { signIn: "/login" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          const input = LoginBody.safeParse({ email: credentials?.email ?? "", password: credentials?.password ?? "" });
          if (!input.success) return null;
          try {
            const headers = new Headers(Object.entries(req.headers ?? {}).map(([k, v]) => [k, String(v)] as [string, string]));
            const user = await logInGuarded(await getDb(), input.data, clientIp({ headers }));
            return { id: user.id, email: user.email, name: user.fullName, sessionVersion: user.sessionVersion };
          } catch (error) {
            if (error instanceof AppError && error.code === "unauthorized") return null;
            // next-auth reports a thrown error's message to the form as `error`.
            if (error instanceof AppError && error.code === "rate_limited") throw new Error("rate_limited");
            throw error;
          }
        },
      }),
    ],
    callbacks: {
      // The cookie carries the user id (sub) and the session version it was issued under (sv);
      // every request reads the user afresh and compares the version.
      jwt: ({ token, user }) =>
        user ? { sub: user.id, email: user.email, name: user.name, sv: (user as { sessionVersion?: number }).sessionVersion ?? 0 } : token,
      session: ({ session, token }) => ({ ...session, userId: token.sub, sessionVersion: sessionVersionOf(token.sv) }),
    },
  };
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
