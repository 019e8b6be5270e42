import "server-only";

// provider_c: Apple iCloud (or any CalDAV server) through tsdav, with a Basic-auth login and an
// app-specific password, one concern per file: reaching the server (fetch.ts: the login, the
// timeout, the address policy for a server the host named, decisions §17), the login's session
// and discovery (connection.ts), what a failure says (failure.ts; lib/calendars/errors.ts decides
// what it means), where objects live (paths.ts), the calendars (calendars.ts), busy time
// (busy.ts), incremental reads and their state (changes.ts, sync-state.ts), a booking's event
// (events.ts), iCalendar (ics.ts, ical.js). No push, no meetings, no revoke.
//
// This module is loaded at the first CalDAV call (lib/calendars/index.ts, connect), never
// statically: tsdav, ical.js and undici load with it (lib/lazy-modules.test.ts). address.ts is
// the one file of this folder imported statically.

export { caldavClient, verifyCalDavCredentials } from "./client";
export { eventFileName } from "./paths";
export { etagDiff, readSyncState, type CalDavSyncState } from "./sync-state";
