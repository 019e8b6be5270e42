import "server-only";
// Calendar connections (decisions §9): one verb per file; the providers are lib/calendars, the
// background sync loop and the calendar writes lib/jobs.
export { connectCalDav, saveConnection, MAX_CONNECTIONS_PER_HOST } from "./connect";
export { startOAuth, completeOAuth, InvalidOAuthState, oauthRedirectUri, STATE_TTL_MS, type OAuthOutcome } from "./oauth";
export { syncConnection, claimDueConnections, syncIntervalMs } from "./sync";
export { updateConnectionCalendars, deleteConnection } from "./update";
export { getConnectionForHostOrThrow, loadConnections, loadConnectionOrThrow, type ConnectionWithCalendars } from "./store";
