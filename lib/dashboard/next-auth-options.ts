import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { clientIp } from "@/lib/http/client-ip";
import { LoginBody } from "@/lib/schemas/account";
import { logInGuarded } from "@/lib/services/accounts/login-guard";
import { getDb } from "@/lib/store/database";
import { sessionVersionOf } from "@/lib/auth/jwt";
import { secureCookies, sessionSecret } from "@/lib/auth/session";

// next-auth's options for the dashboard's sign-in: the one part of the session that needs the
// database (checking a password). Kept apart from lib/auth/session.ts, which only reads cookies,
// so the route wrapper and proxy.ts do not load the database client and argon2.

/**
 * next-auth's log lines through the service's log. A session cookie that no longer decrypts (a
 * stale one after JWT_SECRET changed, one from another deployment on the same host name, an
 * expired one) is the visitor being signed out, not a fault: one warn line, without the cookie
 * or a stack, instead of next-auth's error with a stack trace on every request.
 */
const nextAuthLogger: NonNullable<NextAuthOptions["logger"]> = {
  error(code, metadata) {
    if (code === "JWT_SESSION_ERROR") {
      log.warn({ code }, "dashboard session cookie could not be read (stale, expired or from another secret): treated as signed out");
      return;
    }
    const error = metadata instanceof Error ? metadata : (metadata as { error?: unknown } | undefined)?.error;
    log.error({ code, err: error instanceof Error ? error : undefined }, "next-auth error");
  },
  warn(code) {
    log.warn({ code }, "next-auth warning");
  },
  debug(code) {
    log.debug({ code }, "next-auth debug");
  },
};

export function authOptions(): NextAuthOptions {
  const config = getConfig();
  // next-auth builds its callback and redirect URLs from NEXTAUTH_URL: the service's APP_URL.
  process.env.NEXTAUTH_URL ??= config.appUrl;
  return {
    secret: sessionSecret(),
    session: { strategy: "jwt", maxAge: config.jwtExpiresIn },
    useSecureCookies: secureCookies(),
    pages: { signIn: "/login" },
    logger: nextAuthLogger,
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
