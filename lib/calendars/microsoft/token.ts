import "server-only";
import { CalendarError, type AccessToken } from "../types";
import { tokenError } from "./failure";
import { send } from "./http";
import { SCOPE, settings } from "./settings";

// The identity platform's token endpoint (OAuth 2.0 v2): a code exchanged, a token refreshed.

export type Tokens = { access: AccessToken; refreshToken: string | undefined };

export async function tokenRequest(params: Record<string, string>, action: string): Promise<Tokens> {
  const s = settings();
  const answer = await send(
    `${s.loginBaseUrl}/oauth2/v2.0/token`,
    {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ client_id: s.clientId, client_secret: s.clientSecret, scope: SCOPE, ...params }),
    },
    action,
  );
  // The consent callback's code exchange, or a refresh.
  if (answer.status < 200 || answer.status >= 300) throw tokenError(answer, action, params.grant_type === "authorization_code" ? "exchange" : "api");
  const data = (answer.body ?? {}) as { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown };
  if (typeof data.access_token !== "string" || !data.access_token) {
    throw new CalendarError("rejected", `${action}: Microsoft returned no access token`, answer.status);
  }
  const lifetimeS = Number(data.expires_in);
  return {
    // expires_in is sent as a number, once documented as a string; without it assume an hour.
    access: { accessToken: data.access_token, expiresAt: Date.now() + (Number.isFinite(lifetimeS) && lifetimeS > 0 ? lifetimeS : 3600) * 1000 },
    refreshToken: typeof data.refresh_token === "string" && data.refresh_token ? data.refresh_token : undefined,
  };
}
