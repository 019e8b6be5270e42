import { createHash, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { users, type UserRow } from "@/db/schema";
import { CalendarError, oauthProviderOf, type OAuthProviderId } from "@/lib/calendars";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { open, seal } from "@/lib/secret-box";
import { saveConnection } from "./connect";

// The OAuth consent round trip of provider_a and provider_b. The `state` is the whole flow's
// memory, sealed (AES-256-GCM: nobody can read or forge it): who started it, for which
// provider, until when, and the PKCE verifier, which thus never appears in any URL. No table
// holds half-finished flows.

const STATE_PURPOSE = "calendar:oauth-state";
/** How long a consent screen may stay open before its state no longer connects anything. */
export const STATE_TTL_MS = 10 * 60_000;

type State = { userId: string; provider: OAuthProviderId; verifier: string; expiresAt: number };

export function oauthRedirectUri(provider: OAuthProviderId): string {
  return `${getConfig().appUrl}/api/v1/oauth/callback/${provider}`;
}

/** The consent URL for the host (302 target of the authorize endpoint). */
export function startOAuth(host: Pick<UserRow, "id">, providerId: OAuthProviderId, now: number = Date.now()): string {
  const provider = oauthProviderOf(providerId);
  if (!provider.configured()) {
    throw new AppError("provider_unavailable", `${providerId} is not configured on this server (its OAuth client id and secret are missing)`);
  }
  const verifier = randomBytes(32).toString("base64url");
  const state: State = { userId: host.id, provider: providerId, verifier, expiresAt: now + STATE_TTL_MS };
  return provider.authorizeUrl({
    state: seal(JSON.stringify(state), STATE_PURPOSE),
    redirectUri: oauthRedirectUri(providerId),
    codeChallenge: createHash("sha256").update(verifier).digest("base64url"),
  });
}

/** A state that does not open, names another provider, or has expired: nothing is connected. */
export class InvalidOAuthState extends Error {}

function readState(sealed: string | undefined, providerId: OAuthProviderId, now: number): State {
  const plain = sealed ? open(sealed, STATE_PURPOSE) : undefined;
  if (!plain) throw new InvalidOAuthState("This sign-in link is not valid. Start connecting the calendar again from the dashboard.");
  const state = JSON.parse(plain) as State;
  if (state.provider !== providerId) throw new InvalidOAuthState("This sign-in link belongs to another calendar provider.");
  if (state.expiresAt <= now) throw new InvalidOAuthState("This sign-in link has expired. Start connecting the calendar again from the dashboard.");
  return state;
}

export type OAuthOutcome = { ok: true; connectionId: string } | { ok: false; error: string };

/**
 * The callback: checks the state (InvalidOAuthState when forged or stale), then exchanges the
 * code and stores the connection. What the provider or the person declined comes back as an
 * outcome for the dashboard to show, never as a server error.
 */
export async function completeOAuth(
  db: Db,
  providerId: OAuthProviderId,
  query: { code?: string; state?: string; error?: string },
  now: number = Date.now(),
): Promise<OAuthOutcome> {
  const state = readState(query.state, providerId, now);
  const [host] = await db.select().from(users).where(eq(users.id, state.userId)).limit(1);
  if (!host) throw new InvalidOAuthState("The account this sign-in was started from no longer exists.");
  if (query.error) return { ok: false, error: query.error === "access_denied" ? "access_denied" : "provider_error" };
  if (!query.code) return { ok: false, error: "provider_error" };
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
    return { ok: true, connectionId: saved.connection.id };
  } catch (error) {
    if (error instanceof CalendarError) {
      log.warn({ provider: providerId, kind: error.kind, httpStatus: error.status }, "calendar OAuth exchange failed");
      return { ok: false, error: error.kind === "unavailable" || error.kind === "rate_limited" ? "provider_unavailable" : "exchange_failed" };
    }
    if (error instanceof AppError) return { ok: false, error: error.code };
    throw error;
  }
}
