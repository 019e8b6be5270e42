import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import type { OAuthConfig } from "next-auth/providers/oauth";
import { getConfig, type OidcConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { clientIp } from "@/lib/http/client-ip";
import { LoginBody } from "@/lib/schemas/account";
import { logInGuarded } from "@/lib/services/accounts/login-guard";
import { getDb } from "@/lib/store/database";
import { sessionVersionOf } from "@/lib/auth/jwt";
import { bearerOfSession, secureCookies, sessionCookieOf, sessionSecret } from "@/lib/auth/session";
import { hostOfSession } from "@/lib/services/accounts/sessions";
import { claimsOf, resolveOidcSignIn, type OidcRefusal } from "@/lib/services/accounts/oidc-sign-in";

// next-auth's options for the dashboard's sign-in: the one part of the session that needs the
// database (checking a password, finding the host of a company sign-in). Kept apart from
// lib/auth/session.ts, which only reads cookies, so the route wrapper and proxy.ts do not load
// the database client and argon2.

/**
 * next-auth's log lines through the service's log. A session cookie that no longer decrypts (a
 * stale one after JWT_SECRET changed, one from another deployment on the same host name, an
 * expired one) is the visitor being signed out, not a fault: one warn line, without the cookie
 * or a stack, instead of next-auth's error with a stack trace on every request.
 */
const nextAuthLogger: NonNullable<NextAuthOptions["logger"]> = {
  error(code, metadata) {
    // A callback that fails its checks (a state, PKCE or nonce that does not match, a code used
    // twice) is a stale tab or a forgery, not a fault of ours: the visitor lands on /login with words.
    if (code === "OAUTH_CALLBACK_ERROR") {
      const error = (metadata as { error?: unknown } | undefined)?.error;
      log.warn({ code, reason: error instanceof Error ? error.message : undefined }, "OIDC callback refused");
      return;
    }
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

/** What the sign-in needs of the request it answers: the session it may link an identity to. */
export type AuthRequest = { cookieHeader?: string | null };

/** The dashboard's login page with a refusal's code, which it words (components/auth/sign-in-errors.ts). */
const loginWith = (appUrl: string, refusal: OidcRefusal) => `${appUrl}/login?error=${refusal}`;

export function authOptions(request: AuthRequest = {}): NextAuthOptions {
  const config = getConfig();
  // next-auth builds its callback and redirect URLs from NEXTAUTH_URL: the service's APP_URL.
  process.env.NEXTAUTH_URL ??= config.appUrl;
  return {
    secret: sessionSecret(),
    session: { strategy: "jwt", maxAge: config.jwtExpiresIn },
    useSecureCookies: secureCookies(),
    // Every failure, next-auth's own (OAuthCallback, AccessDenied …) and ours, lands on /login?error=….
    pages: { signIn: "/login", error: "/login" },
    logger: nextAuthLogger,
    providers: [...(config.passwordLogin ? [credentialsProvider()] : []), ...(config.oidc ? [oidcProvider(config.oidc)] : [])],
    callbacks: {
      async signIn({ user, account, profile }) {
        if (account?.provider !== "oidc") return true;
        const oidc = config.oidc!;
        const claims = claimsOf((profile ?? {}) as Record<string, unknown>);
        // openid-client checked the ID token against the discovery document's issuer; this pins
        // that document to the configured issuer, so a changed document cannot speak for another.
        if (!claims || claims.issuer !== oidc.issuer) return loginWith(config.appUrl, "OidcWrongIssuer");
        const db = await getDb();
        const linkTo = await signedInHost(request);
        const outcome = await resolveOidcSignIn(db, claims, { signup: oidc.signup, linkTo });
        if (!outcome.ok) {
          log.info({ refusal: outcome.refusal, issuer: claims.issuer }, "OIDC sign-in refused");
          return linkTo ? `${config.appUrl}/dashboard/settings?error=${outcome.refusal}` : loginWith(config.appUrl, outcome.refusal);
        }
        log.info({ userId: outcome.user.id, how: outcome.how }, "OIDC sign-in");
        // With the JWT strategy and no adapter, next-auth hands this same object to the jwt
        // callback as `user`: it becomes the host the cookie speaks for.
        Object.assign(user, { id: outcome.user.id, email: outcome.user.email, name: outcome.user.fullName, sessionVersion: outcome.user.sessionVersion });
        return true;
      },
      // The cookie carries the user id (sub) and the session version it was issued under (sv);
      // every request reads the user afresh and compares the version.
      jwt: ({ token, user }) =>
        user ? { sub: user.id, email: user.email, name: user.name, sv: (user as { sessionVersion?: number }).sessionVersion ?? 0 } : token,
      session: ({ session, token }) => ({ ...session, userId: token.sub, sessionVersion: sessionVersionOf(token.sv) }),
    },
  };
}

/** The host of the request's own, still valid session: a company sign-in then links to it. */
async function signedInHost(request: AuthRequest) {
  const cookie = sessionCookieOf(request.cookieHeader ?? null);
  const bearer = cookie ? await bearerOfSession(cookie) : null;
  return bearer ? ((await hostOfSession(await getDb(), bearer)) ?? undefined) : undefined;
}

function credentialsProvider() {
  return CredentialsProvider({
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
  });
}

/**
 * The company's OpenID provider (decisions §22), found by discovery. openid-client checks the
 * state, the PKCE verifier and the nonce (each in a cookie of its own), the ID token's signature,
 * issuer, audience and expiry; the code is spent at the provider, so a replay fails there.
 */
function oidcProvider(oidc: OidcConfig): OAuthConfig<Record<string, unknown>> {
  return {
    id: "oidc",
    name: oidc.name,
    type: "oauth",
    wellKnown: oidc.discoveryUrl,
    clientId: oidc.clientId,
    clientSecret: oidc.clientSecret,
    idToken: true,
    checks: ["pkce", "state", "nonce"],
    authorization: { params: { scope: "openid email profile" } },
    client: { token_endpoint_auth_method: "client_secret_basic" },
    // Many providers put email and name only in userinfo (oidc-provider does, by default): read it
    // with the access token, keeping the ID token's issuer and subject (openid-client checks
    // that userinfo's `sub` is the ID token's).
    userinfo: {
      async request({ tokens, client }) {
        // At run time `tokens` is openid-client's TokenSet (next-auth types it by its fields only).
        const set = tokens as unknown as Parameters<typeof client.userinfo>[0] & { claims(): Record<string, unknown>; access_token?: string };
        const idClaims = set.claims();
        const info = set.access_token && client.issuer.metadata.userinfo_endpoint ? await client.userinfo(set) : {};
        return { ...idClaims, ...info, iss: idClaims.iss, sub: String(idClaims.sub) };
      },
    },
    profile: (claims) => ({ id: String(claims.sub), email: typeof claims.email === "string" ? claims.email : null, name: typeof claims.name === "string" ? claims.name : null }),
  };
}
