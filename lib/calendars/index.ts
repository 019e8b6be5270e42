import "server-only";
import type { CalendarConnectionRow } from "@/db/schema";
import { open, seal } from "@/lib/secret-box";
import { ACCESS_TOKEN_PURPOSE, CREDENTIALS_PURPOSE } from "./server-host";
import { googleProvider } from "./google";
import { microsoftProvider } from "./microsoft";
import {
  CalendarError,
  type AccessToken,
  type CalDavCredentials,
  type CalendarClient,
  type OAuthCredentials,
  type OAuthProvider,
  type OAuthProviderId,
} from "./types";

export * from "./types";

// The provider registry, and the one place a connection's sealed credentials are opened into a
// client. Credentials are sealed with AES-256-GCM under ENCRYPTION_KEY (lib/secret-box: the
// sealed value names its key, so the key can rotate) and bound to their purpose.

export { ACCESS_TOKEN_PURPOSE, CREDENTIALS_PURPOSE } from "./server-host";

const oauth: Record<OAuthProviderId, OAuthProvider> = { provider_a: googleProvider, provider_b: microsoftProvider };

export function oauthProviderOf(id: OAuthProviderId): OAuthProvider {
  return oauth[id];
}

export function sealCredentials(credentials: OAuthCredentials | CalDavCredentials): string {
  return seal(JSON.stringify(credentials), CREDENTIALS_PURPOSE);
}

export function sealAccessToken(token: AccessToken): string {
  return seal(JSON.stringify(token), ACCESS_TOKEN_PURPOSE);
}

function openJson<T>(sealed: string | null, purpose: string): T | undefined {
  const plain = sealed === null ? undefined : open(sealed, purpose);
  return plain === undefined ? undefined : (JSON.parse(plain) as T);
}

/** Where a client keeps what a provider hands it while it works (tokens obtained by refreshing). */
export type ConnectionPersistence = {
  /** A new access token (sealed by the caller as it stores it), so the next sync does not refresh again. */
  saveAccessToken(sealed: string, expiresAt: Date): Promise<void>;
  /** A refresh token the provider rotated. */
  saveCredentials(sealed: string): Promise<void>;
};

/**
 * Ends a stored OAuth connection's grant at its provider, where the provider offers that
 * (Google); a no-op otherwise. Throws CalendarError (never with the token in it).
 */
export async function revokeConnectionGrant(connection: CalendarConnectionRow): Promise<void> {
  if (connection.provider === "provider_c") return;
  const provider = oauthProviderOf(connection.provider);
  const credentials = openJson<OAuthCredentials>(connection.credentialsEncrypted, CREDENTIALS_PURPOSE);
  if (!provider.revoke || !credentials || !provider.configured()) return;
  await provider.revoke(credentials.refreshToken);
}

/**
 * The CalDAV client, built at its first call: tsdav, ical.js and undici are loaded then, by a
 * process that syncs or writes a CalDAV calendar, not at every start (docs/operations.md "Running in
 * production").
 */
function lazyCaldavClient(credentials: CalDavCredentials): CalendarClient {
  let client: Promise<CalendarClient> | undefined;
  const real = () => (client ??= import("./caldav").then((caldav) => caldav.caldavClient(credentials)));
  return {
    listCalendars: async () => (await real()).listCalendars(),
    busy: async (calendarIds, range) => (await real()).busy(calendarIds, range),
    changes: async (calendarId, args) => (await real()).changes(calendarId, args),
    createEvent: async (calendarId, event) => (await real()).createEvent(calendarId, event),
    updateEvent: async (calendarId, eventId, event) => (await real()).updateEvent(calendarId, eventId, event),
    deleteEvent: async (calendarId, eventId) => (await real()).deleteEvent(calendarId, eventId),
  };
}

/**
 * A client for a stored connection. Credentials that no longer open (the key that sealed them is
 * gone) mean the host must connect again. What the provider hands over while the client works is
 * given, sealed, to `persist` (lib/services/calendars/store.ts writes it).
 */
export function clientForConnection(connection: CalendarConnectionRow, persist: ConnectionPersistence): CalendarClient {
  if (connection.provider === "provider_c") {
    const credentials = openJson<CalDavCredentials>(connection.credentialsEncrypted, CREDENTIALS_PURPOSE);
    if (!credentials) throw new CalendarError("auth", "The stored calendar password can no longer be read; connect the calendar again");
    return lazyCaldavClient(credentials);
  }
  const credentials = openJson<OAuthCredentials>(connection.credentialsEncrypted, CREDENTIALS_PURPOSE);
  if (!credentials) throw new CalendarError("auth", "The stored calendar grant can no longer be read; connect the calendar again");
  const access = openJson<AccessToken>(connection.accessTokenEncrypted, ACCESS_TOKEN_PURPOSE);
  return oauthProviderOf(connection.provider).client({
    refreshToken: credentials.refreshToken,
    access: access && access.expiresAt > Date.now() ? access : undefined,
    onAccessToken: (token) => persist.saveAccessToken(sealAccessToken(token), new Date(token.expiresAt)),
    onRefreshToken: (refreshToken) => persist.saveCredentials(sealCredentials({ refreshToken } satisfies OAuthCredentials)),
  });
}
