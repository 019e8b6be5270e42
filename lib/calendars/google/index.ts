import "server-only";
import { getConfig } from "@/lib/config";
import type { OAuthProvider } from "../types";
import { googleClient } from "./client";
import { authorizeUrl, exchangeCode } from "./consent";
import { revokeGrant } from "./revoke";

// provider_a: Google Calendar through googleapis, one concern per file: the OAuth client
// (oauth.ts), consent and code exchange (consent.ts), the account's session and its calls
// (session.ts), what a failure says (failure.ts; lib/calendars/errors.ts decides what it means),
// the calendar list (calendars.ts), busy time (busy.ts), a booking's event (events.ts) and its
// Meet (meeting-link.ts), push channels (push.ts), revoking the grant (revoke.ts).

export { googleEventBusy } from "./busy";
export { googleEventId } from "./events";

export const googleProvider: OAuthProvider = {
  id: "provider_a",
  configured: () => getConfig().google !== undefined,
  authorizeUrl,
  exchangeCode,
  client: googleClient,
  revoke: revokeGrant,
};
