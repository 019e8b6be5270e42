import "server-only";
import { CalendarError, type OAuthGrant } from "../types";
import { graphError } from "./failure";
import { query, send } from "./http";
import { SCOPE, settings } from "./settings";
import { tokenRequest } from "./token";

// Connecting a Microsoft account: the consent URL (v2 endpoints with PKCE), then the callback's
// code exchanged for tokens and the account's address.

export function authorizeUrl({ state, redirectUri, codeChallenge }: { state: string; redirectUri: string; codeChallenge: string }): string {
  const s = settings();
  const params = new URLSearchParams({
    client_id: s.clientId,
    response_type: "code",
    redirect_uri: redirectUri,
    response_mode: "query",
    scope: SCOPE,
    state,
    code_challenge: codeChallenge,
    code_challenge_method: "S256",
    // The person may be signed in to several Microsoft accounts: let them pick the calendar's.
    prompt: "select_account",
  });
  return `${s.loginBaseUrl}/oauth2/v2.0/authorize?${params}`;
}

export async function exchangeCode({ code, redirectUri, codeVerifier }: { code: string; redirectUri: string; codeVerifier: string }): Promise<OAuthGrant> {
  const action = "Connecting the Microsoft calendar";
  const tokens = await tokenRequest({ grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: codeVerifier }, action);
  if (!tokens.refreshToken) {
    throw new CalendarError("rejected", `${action}: Microsoft returned no refresh token (the offline_access permission was not granted)`);
  }
  const answer = await send(
    `${settings().graphBaseUrl}/me?${query({ $select: "mail,userPrincipalName" })}`,
    { headers: { accept: "application/json", authorization: `Bearer ${tokens.access.accessToken}` } },
    action,
  );
  if (answer.status < 200 || answer.status >= 300) throw graphError(answer, action);
  const me = (answer.body ?? {}) as { mail?: unknown; userPrincipalName?: unknown };
  // Personal accounts and mailboxes without a primary SMTP address have no `mail`.
  const email = typeof me.mail === "string" && me.mail ? me.mail : typeof me.userPrincipalName === "string" ? me.userPrincipalName : "";
  if (!email) throw new CalendarError("rejected", `${action}: Microsoft did not name the account`);
  return { refreshToken: tokens.refreshToken, access: tokens.access, email };
}
