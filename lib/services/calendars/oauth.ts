import "server-only";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { eq, inArray, lt } from "drizzle-orm";
import type { Db } from "@/db";
import type { Bearer } from "@/lib/auth/jwt";
import { oauthStateUses, users, type UserRow } from "@/db/schema";
import { CalendarError, oauthProviderOf, type OAuthProviderId } from "@/lib/calendars";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { open, seal } from "@/lib/secret-box";
import { saveConnection } from "./connect";
import { ensurePushChannels } from "./push";
import { oauthCallbackUrl, siteIsHttps } from "@/lib/links";

// The OAuth consent round trip of provider_a and provider_b. The `state` is the whole flow's
// memory, sealed (AES-256-GCM: nobody can read or forge it): who started it, for which
// provider, until when, and the PKCE verifier, which thus never appears in any URL. No table
// holds half-finished flows; one holds the ids of used states until they expire.
//
// A sealed state alone proves nothing about who brings it back: anyone holding a consent link
// (account M sends theirs to a victim) could finish it with their own provider account and link
// it to M. So the flow is bound to the browser that started it: authorize sets a random nonce in
// a cookie and seals its hash into the state, and the callback takes the state only from a
// browser holding that nonce, or signed in to the dashboard as the state's host (an API
// client's user, whose browser never saw authorize's cookie). And a state connects once.

const STATE_PURPOSE = "calendar:oauth-state";
/** How long a consent screen may stay open before its state no longer connects anything. */
export const STATE_TTL_MS = 10 * 60_000;

type State = {
  userId: string;
  provider: OAuthProviderId;
  verifier: string;
  expiresAt: number;
  /** The state's random id: recorded in oauth_state_uses when used, so it is used once. */
  jti: string;
  /** SHA-256 (base64url) of the nonce in the starting browser's cookie. */
  nonceHash: string;
};

const sha256 = (value: string) => createHash("sha256").update(value).digest("base64url");

export function oauthRedirectUri(provider: OAuthProviderId): string {
  return oauthCallbackUrl(provider);
}

/** Where the flow goes next (the authorize endpoint's 302) and the nonce its browser keeps. */
export type OAuthStart = { consentUrl: string; nonce: string };

/** The consent URL for the host, and the nonce to set in the browser's cookie (oauthNonceCookie). */
export function startOAuth(host: Pick<UserRow, "id">, providerId: OAuthProviderId, now: number = Date.now()): OAuthStart {
  const provider = oauthProviderOf(providerId);
  if (!provider.configured()) {
    throw new AppError("provider_unavailable", `${providerId} is not configured on this server (its OAuth client id and secret are missing)`);
  }
  const verifier = randomBytes(32).toString("base64url");
  const nonce = randomBytes(32).toString("base64url");
  const state: State = {
    userId: host.id,
    provider: providerId,
    verifier,
    expiresAt: now + STATE_TTL_MS,
    jti: randomBytes(16).toString("base64url"),
    nonceHash: sha256(nonce),
  };
  const consentUrl = provider.authorizeUrl({
    state: seal(JSON.stringify(state), STATE_PURPOSE),
    redirectUri: oauthRedirectUri(providerId),
    codeChallenge: sha256(verifier),
  });
  return { consentUrl, nonce };
}

// The nonce cookie. Its name and attributes live here, beside the state they bind, because both
// route handlers need them and a Next.js route module may export nothing but its handlers.
// `__Host-` (https) keeps a sibling subdomain from planting its own nonce; that prefix requires
// Path=/ (browsers drop a `__Host-` cookie with any other path), so the cookie rides on every
// request for at most 10 minutes. SameSite=Lax: the provider sends the browser back with a
// top-level GET, which carries Lax cookies. One cookie per browser: a second flow started before
// the first returns replaces it, and the first must start again.

/** `__Host-oauth_nonce` (Secure) when APP_URL is https; `oauth_nonce` on plain http (local runs). */
export function oauthNonceCookieName(): string {
  return `${secureCookies() ? "__Host-" : ""}oauth_nonce`;
}

function secureCookies(): boolean {
  return siteIsHttps();
}

/** The Set-Cookie value carrying `nonce` for as long as its state lives, or clearing it (null). */
export function oauthNonceCookie(nonce: string | null): string {
  const maxAge = nonce === null ? 0 : STATE_TTL_MS / 1000;
  return `${oauthNonceCookieName()}=${nonce ?? ""}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secureCookies() ? "; Secure" : ""}`;
}

/** The nonce from a Cookie header, if it holds one. */
export function oauthNonceOf(cookieHeader: string | null): string | undefined {
  const name = oauthNonceCookieName();
  for (const part of cookieHeader?.split(";") ?? []) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

/** A state that does not open, names another provider, has expired, came back to another browser or was used: nothing is connected. */
export class InvalidOAuthState extends Error {}

function readState(sealed: string | undefined, providerId: OAuthProviderId, now: number): State {
  const plain = sealed ? open(sealed, STATE_PURPOSE) : undefined;
  if (!plain) throw new InvalidOAuthState("This sign-in link is not valid. Start connecting the calendar again from the dashboard.");
  const state = JSON.parse(plain) as State;
  // A state sealed before flows were bound to a browser has neither: it is refused (10 minutes of them at most).
  if (typeof state.jti !== "string" || typeof state.nonceHash !== "string") {
    throw new InvalidOAuthState("This sign-in link is not valid. Start connecting the calendar again from the dashboard.");
  }
  if (state.provider !== providerId) throw new InvalidOAuthState("This sign-in link belongs to another calendar provider.");
  if (state.expiresAt <= now) throw new InvalidOAuthState("This sign-in link has expired. Start connecting the calendar again from the dashboard.");
  return state;
}

/** What the callback knows of the browser that brought the state back. */
export type OAuthBrowser = {
  /** The nonce of its oauth_nonce cookie (oauthNonceOf). */
  nonce: string | undefined;
  /** Who its valid dashboard session cookie speaks for (and under which session version), if it has one. */
  session: Bearer | null;
};

/**
 * How the callback ended once the state was accepted (and so used up). `nonceUsed`: the
 * browser's nonce cookie was this flow's, and should now be cleared.
 */
export type OAuthOutcome = ({ ok: true; connectionId: string } | { ok: false; error: string }) & { nonceUsed: boolean };

/** Whether the state came back to the browser that started it (or to its host's signed-in browser). */
function boundBy(state: State, browser: OAuthBrowser): "nonce" | "session" | undefined {
  if (browser.nonce) {
    const presented = Buffer.from(sha256(browser.nonce));
    const expected = Buffer.from(state.nonceHash);
    if (presented.length === expected.length && timingSafeEqual(presented, expected)) return "nonce";
  }
  if (browser.session !== null && browser.session.userId === state.userId) return "session";
  return undefined;
}

/**
 * Records the state as used: false when it already was. The database settles two callbacks
 * racing with one state (the primary key). Rows whose state expired are deleted on the way, at
 * most 100 a call (indexed), which outpaces the one row each call adds. They are kept a further
 * TTL: a request that read the clock just before its state expired must still find the row.
 */
async function consumeState(db: Db, state: State, now: number): Promise<boolean> {
  const stale = db.select({ id: oauthStateUses.id }).from(oauthStateUses).where(lt(oauthStateUses.expiresAt, new Date(now - STATE_TTL_MS))).limit(100);
  await db.delete(oauthStateUses).where(inArray(oauthStateUses.id, stale));
  const recorded = await db
    .insert(oauthStateUses)
    .values({ id: state.jti, expiresAt: new Date(state.expiresAt) })
    .onConflictDoNothing()
    .returning({ id: oauthStateUses.id });
  return recorded.length === 1;
}

/**
 * The callback: checks the state (InvalidOAuthState when forged, stale, brought back by another
 * browser, or used before), uses it up, then exchanges the code and stores the connection. What
 * the provider or the person declined comes back as an outcome for the dashboard to show, never
 * as a server error; the state is used up all the same.
 */
export async function completeOAuth(
  db: Db,
  providerId: OAuthProviderId,
  query: { code?: string; state?: string; error?: string },
  browser: OAuthBrowser,
  now: number = Date.now(),
): Promise<OAuthOutcome> {
  const state = readState(query.state, providerId, now);
  const binding = boundBy(state, browser);
  if (!binding) {
    throw new InvalidOAuthState(
      "This sign-in was started in another browser, or a newer one was started since in this one. Start connecting the calendar again from the dashboard.",
    );
  }
  const [host] = await db.select().from(users).where(eq(users.id, state.userId)).limit(1);
  if (!host) throw new InvalidOAuthState("The account this sign-in was started from no longer exists.");
  // A session ended by a sign-out everywhere (or a password change) vouches for nobody.
  if (binding === "session" && browser.session?.sessionVersion !== host.sessionVersion) {
    throw new InvalidOAuthState("Your session has ended. Log in again, then start connecting the calendar again from the dashboard.");
  }
  if (!(await consumeState(db, state, now))) {
    throw new InvalidOAuthState("This sign-in link has already been used. Start connecting the calendar again from the dashboard.");
  }
  const nonceUsed = binding === "nonce";
  if (query.error) return { ok: false, error: query.error === "access_denied" ? "access_denied" : "provider_error", nonceUsed };
  if (!query.code) return { ok: false, error: "provider_error", nonceUsed };
  const provider = oauthProviderOf(providerId);
  try {
    const grant = await provider.exchangeCode({ code: query.code, redirectUri: oauthRedirectUri(providerId), codeVerifier: state.verifier });
    const client = provider.client({ refreshToken: grant.refreshToken, access: grant.access, onAccessToken: async () => {} });
    const listed = await client.listCalendars();
    const saved = await saveConnection(
      db,
      host,
      { provider: providerId, email: grant.email, credentials: { refreshToken: grant.refreshToken }, access: grant.access, calendars: listed },
      now,
    );
    // Push channels (decisions §17) where APP_URL is https; polling covers what they miss, so
    // no failure here undoes the connection (the calendar loop makes missing ones later).
    await ensurePushChannels(db, saved.connection.id, now).catch((err: unknown) => log.error({ err, connectionId: saved.connection.id }, "calendar push: could not set up channels on connect"));
    return { ok: true, connectionId: saved.connection.id, nonceUsed };
  } catch (error) {
    if (error instanceof CalendarError) {
      log.warn({ provider: providerId, kind: error.kind, httpStatus: error.status }, "calendar OAuth exchange failed");
      return { ok: false, error: error.kind === "unavailable" || error.kind === "rate_limited" ? "provider_unavailable" : "exchange_failed", nonceUsed };
    }
    if (error instanceof AppError) return { ok: false, error: error.code, nonceUsed };
    throw error;
  }
}
