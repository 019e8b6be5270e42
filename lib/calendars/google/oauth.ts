import "server-only";
// The calendar module alone: `import { google } from "googleapis"` loads all ~400 generated APIs
// (≈700 ms at start here, and 200 MB of types for tsc); this is the code `google.calendar()` runs.
import { auth } from "googleapis/build/src/apis/calendar";
import { getConfig } from "@/lib/config";
import { CalendarError, type AccessToken } from "../types";

// The OAuth client every Google request goes through, token and API alike. Every address comes
// from getConfig().googleEndpoints when a client is made, so tests and other deployments can point
// it elsewhere.

export type OAuth2Client = InstanceType<typeof auth.OAuth2>;
export type Credentials = OAuth2Client["credentials"];

/** `calendar` (full access), if granted earlier (include_granted_scopes), covers both. */
export const FULL_SCOPE = "https://www.googleapis.com/auth/calendar";
export const SCOPES = ["https://www.googleapis.com/auth/calendar.readonly", "https://www.googleapis.com/auth/calendar.events"];
/** Used when a token answer omits expires_in (Google's tokens live an hour). */
const DEFAULT_TOKEN_LIFETIME_MS = 3600_000;

function settings() {
  const config = getConfig();
  if (!config.google) {
    throw new CalendarError("unavailable", "Google Calendar is not configured on this server (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET)");
  }
  return { ...config.google, ...config.googleEndpoints, timeoutMs: config.calendarTimeoutMs };
}

export function oauthClient(redirectUri?: string): OAuth2Client {
  const s = settings();
  return new auth.OAuth2({
    clientId: s.clientId,
    clientSecret: s.clientSecret,
    redirectUri,
    endpoints: { oauth2AuthBaseUrl: s.authUrl, oauth2TokenUrl: s.tokenUrl, oauth2RevokeUrl: s.revokeUrl },
    // Every request, token and API, goes through this transporter. googleapis (`retry: true`) and
    // the token calls (OAuth2Client.RETRY_CONFIG) ask gaxios for retries; `retryConfig.retry: 0`
    // is the one setting that survives the merge. Our job queue retries with its own backoff:
    // gaxios' retries would multiply it and hide how long a call really took.
    transporterOptions: { timeout: s.timeoutMs, retry: false, retryConfig: { retry: 0 } },
  });
}

/**
 * Per-call options (timeout and retries come from the OAuth client's transporter). `rootUrl` is
 * given per call rather than to `calendar({ rootUrl })`: at that level googleapis resolves the
 * API path against it as an absolute path, dropping any path prefix of GOOGLE_API_BASE_URL.
 */
export function callOptions() {
  return { rootUrl: `${getConfig().googleEndpoints.apiBaseUrl}/` };
}

export function toAccessToken(tokens: Credentials): AccessToken | undefined {
  if (!tokens.access_token) return undefined;
  return { accessToken: tokens.access_token, expiresAt: tokens.expiry_date ?? Date.now() + DEFAULT_TOKEN_LIFETIME_MS };
}
