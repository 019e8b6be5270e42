import "server-only";
import { getConfig } from "@/lib/config";
import type { OAuthProvider } from "../types";
import { microsoftClient } from "./client";
import { authorizeUrl, exchangeCode } from "./consent";

// provider_b: Microsoft 365 / Outlook calendars through Microsoft Graph and the identity
// platform's OAuth 2.0 v2 endpoints, as plain REST calls, one concern per file: settings
// (settings.ts), one request (http.ts), the token endpoint (token.ts), consent and code exchange
// (consent.ts), the account's session and its Graph calls (session.ts), what a failure says
// (failure.ts; lib/calendars/errors.ts decides what it means), wire shapes (wire.ts), the calendar
// list (calendars.ts), busy time (busy.ts), a booking's event (events.ts) and its Teams meeting
// (meeting-link.ts), subscriptions (push.ts). No revoke: the identity platform offers an app no
// endpoint to end one grant, so a disconnect only forgets it.

export { toBusy } from "./busy";
export { microsoftTransactionId } from "./events";

export const microsoftProvider: OAuthProvider = {
  id: "provider_b",
  configured: () => getConfig().microsoft !== undefined,
  authorizeUrl,
  exchangeCode,
  client: microsoftClient,
};
