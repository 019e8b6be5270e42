import "server-only";
import { CalendarError, type OAuthGrant } from "../types";
import { googleClient } from "./client";
import { toCalendarError } from "./failure";
import { FULL_SCOPE, SCOPES, oauthClient, toAccessToken, type Credentials, type OAuth2Client } from "./oauth";

// Connecting a Google account: the consent URL, then the callback's code exchanged for tokens.

type CodeChallengeMethod = NonNullable<NonNullable<Parameters<OAuth2Client["generateAuthUrl"]>[0]>["code_challenge_method"]>;

export function authorizeUrl({ state, redirectUri, codeChallenge }: { state: string; redirectUri: string; codeChallenge: string }): string {
  return oauthClient(redirectUri).generateAuthUrl({
    // offline + consent: Google then always returns a refresh token, even on a second connect.
    access_type: "offline",
    prompt: "consent",
    include_granted_scopes: true,
    scope: SCOPES,
    state,
    code_challenge: codeChallenge,
    code_challenge_method: "S256" as CodeChallengeMethod,
  });
}

export async function exchangeCode({ code, redirectUri, codeVerifier }: { code: string; redirectUri: string; codeVerifier: string }): Promise<OAuthGrant> {
  let tokens: Credentials;
  try {
    ({ tokens } = await oauthClient(redirectUri).getToken({ code, codeVerifier, redirect_uri: redirectUri }));
  } catch (e) {
    throw toCalendarError(e, "Connecting Google Calendar", "exchange");
  }
  const access = toAccessToken(tokens);
  if (!access) throw new CalendarError("rejected", "Connecting Google Calendar: Google returned no access token");
  if (!tokens.refresh_token) {
    throw new CalendarError(
      "rejected",
      "Connecting Google Calendar: Google returned no refresh token. Remove this app's access in your Google account (Security › Third-party access) and connect again.",
    );
  }
  // Google's consent screen lets the person untick scopes: without both, sync or writes would fail later.
  const granted = new Set((tokens.scope ?? SCOPES.join(" ")).split(" "));
  if (!granted.has(FULL_SCOPE) && SCOPES.some((scope) => !granted.has(scope))) {
    throw new CalendarError("rejected", "Connecting Google Calendar: access to the calendars was not granted. Connect again and allow both calendar permissions on Google's consent screen.");
  }
  const refreshToken = tokens.refresh_token;
  // The primary calendar's id is the account's address: no extra (email/profile) scope needed.
  const calendars = await googleClient({ refreshToken, access, onAccessToken: async () => {} }).listCalendars();
  const primary = calendars.find((c) => c.isPrimary);
  if (!primary) throw new CalendarError("rejected", "Connecting Google Calendar: the account has no primary calendar");
  return { refreshToken, access, email: primary.externalId };
}
