import "server-only";
import { calendar, type calendar_v3 } from "googleapis/build/src/apis/calendar";
import { log } from "@/lib/log";
import type { OAuthProvider } from "../types";
import { asHttpFailure, isTokenEndpoint, statusOf, toCalendarError } from "./failure";
import { oauthClient, toAccessToken, type Credentials } from "./oauth";

// One connected account's way to Google: the Calendar API over an OAuth client that refreshes its
// own token, and `call`, which every request of the client goes through.

/** Runs one request: a stale token is replaced once, a refreshed token is stored, failures leave as CalendarError. */
export type GoogleCall = <T>(action: string, request: () => Promise<T>) => Promise<T>;

export type GoogleSession = { api: calendar_v3.Calendar; call: GoogleCall };

export function googleSession(args: Parameters<OAuthProvider["client"]>[0]): GoogleSession {
  const { refreshToken, access, onAccessToken } = args;
  const oauth = oauthClient();
  oauth.setCredentials({
    refresh_token: refreshToken,
    ...(access ? { access_token: access.accessToken, expiry_date: access.expiresAt, token_type: "Bearer" } : {}),
  });
  const api = calendar({ version: "v3", auth: oauth });

  // OAuth2Client refreshes by itself (expired or about to) and announces each new token here.
  // The caller's store is awaited before the call that caused the refresh returns.
  let refreshes = 0;
  const storing = new Set<Promise<void>>();
  oauth.on("tokens", (tokens: Credentials) => {
    const token = toAccessToken(tokens);
    if (!token) return;
    refreshes += 1;
    const stored: Promise<void> = onAccessToken(token)
      .catch((err: unknown) => log.warn({ err }, "could not store a refreshed Google access token"))
      .finally(() => storing.delete(stored));
    storing.add(stored);
  });

  async function call<T>(action: string, request: () => Promise<T>): Promise<T> {
    try {
      const before = refreshes;
      try {
        return await request();
      } catch (e) {
        // A 401 on an access token we still believed valid (revoked session, clock skew): drop it
        // and try once more with a fresh one. A 401 right after a refresh is final.
        const failure = asHttpFailure(e);
        if (statusOf(e) !== 401 || !failure || isTokenEndpoint(failure) || refreshes !== before) throw e;
        oauth.setCredentials({ refresh_token: refreshToken });
        return await request();
      }
    } catch (e) {
      throw toCalendarError(e, action, "api");
    } finally {
      await Promise.all(storing);
    }
  }

  return { api, call };
}
