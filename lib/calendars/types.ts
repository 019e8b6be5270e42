// The one interface every external calendar speaks (decisions §2, §9): provider_a (Google,
// googleapis), provider_b (Microsoft Graph), provider_c (CalDAV, tsdav + ical.js). Services and
// jobs use only this; nothing outside lib/calendars knows a provider's wire format.

import type { OAuthProviderId } from "@/lib/schemas/calendar-providers";

// The providers' names belong to the API's contract (lib/schemas, a room below the clients);
// passed on from here so that what callers import from lib/calendars stays the same.
export { calendarProviders, oauthProviders, type CalendarProviderId, type OAuthProviderId } from "@/lib/schemas/calendar-providers";

/** A calendar inside the connected account, as the provider names it. */
export type ExternalCalendar = {
  /** The provider's id of the calendar (Google calendar id, Graph calendar id, CalDAV collection URL). */
  externalId: string;
  name: string;
  /** The account's main calendar: it becomes the write target when the host has none. */
  isPrimary: boolean;
  /** False for calendars the account can only read (e.g. subscribed holidays): never a write target. */
  writable: boolean;
};

/** A busy stretch, in epoch milliseconds, half-open [start, end). */
export type BusyRange = {
  start: number;
  end: number;
  /**
   * The provider's id of the event behind it, when the provider says (CalDAV UID, Graph event
   * id); free/busy answers (Google) do not. Used to leave out the events this service wrote.
   */
  eventId?: string;
};

/** The span an incremental read is kept for, and the zone all-day and floating events are read in. */
export type ChangesRange = { from: number; to: number; timeZone: string };

/**
 * What changed in one calendar since `state` (decisions §17). Busy ranges are per event key (Google
 * event id, Graph event id, CalDAV object href), clipped to [from, to); a key whose event no longer
 * blocks time in the span comes back with an empty list or in `removed`.
 */
export type CalendarChanges = {
  /** True when this is a full read: the calendar's stored busy time is replaced by `upserts` whole. */
  full: boolean;
  /** Every event that changed (or, on a full read, every event), with its busy ranges now. */
  upserts: Map<string, BusyRange[]>;
  /** Events that are gone. */
  removed: string[];
  /** Where the next read goes on from: stored as it is in `calendars.sync_state`. */
  state: string;
};

/** A booking as it is written to the host's calendar. */
export type CalendarEvent = {
  /** Stable per booking (`{bookingId}@{APP_URL host}`): the same booking is always the same event. */
  uid: string;
  title: string;
  description: string;
  location: string;
  start: number;
  end: number;
  /** IANA zone the event is shown in (the host's). */
  timeZone: string;
  attendees: { name: string; email: string }[];
  /**
   * Ask the provider for an online meeting of its own (Google Meet, Teams) when it creates the
   * event (decisions §17); providers without conferencing (CalDAV) ignore it.
   */
  wantsMeeting?: boolean;
};

/** What creating an event yields: its id and, when a meeting was asked for and made, its join link. */
export type CreatedEvent = { eventId: string; meetingUrl?: string };

export type CalendarErrorKind =
  /** The grant was revoked or the password changed: the host must connect again (`reauth_required`). */
  | "auth"
  /** The provider asked us to slow down (429): try again later. */
  | "rate_limited"
  /** A 5xx, a timeout or a network failure: try again later. */
  | "unavailable"
  /** The calendar or event does not exist (any more). */
  | "not_found"
  /** The provider refused the request for another reason (4xx): retrying will not help. */
  | "rejected";

/** Every failure a provider client throws. Messages never contain credentials or tokens. */
export class CalendarError extends Error {
  constructor(
    readonly kind: CalendarErrorKind,
    message: string,
    /** The provider's HTTP status, when there was one. */
    readonly status?: number,
    /** From a 429's Retry-After, when given. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "CalendarError";
  }
}

/** A Retry-After header (seconds, or an HTTP date) in milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Deleting an event that is already gone counts as deleted: runs `remove`, ignoring "not_found". */
export async function deleteIgnoringGone(remove: () => Promise<unknown>): Promise<void> {
  try {
    await remove();
  } catch (e) {
    if (!(e instanceof CalendarError && e.kind === "not_found")) throw e;
  }
}

/**
 * What a connection stores, sealed (lib/secret-box) in `credentials_encrypted`. OAuth accounts keep
 * the refresh token (the access token is kept separately with its expiry); CalDAV keeps the login.
 */
export type OAuthCredentials = { refreshToken: string };
export type CalDavCredentials = { username: string; password: string; serverUrl: string };

/** A fresh access token, handed back so the caller can store it (sealed) until it expires. */
export type AccessToken = { accessToken: string; expiresAt: number };

/** A client bound to one connected account. Every call may throw CalendarError. */
export interface CalendarClient {
  listCalendars(): Promise<ExternalCalendar[]>;
  /**
   * Busy time of each calendar in [from, to). Keys are externalIds; a calendar the provider has no
   * answer for is missing from the map. `timeZone` is the host's: all-day and floating events are
   * read in it. Transparent (free) events are not busy.
   */
  busy(calendarIds: string[], range: { from: number; to: number; timeZone: string }): Promise<Map<string, BusyRange[]>>;
  /**
   * What changed in one calendar since `state` (an earlier answer's), or every event of the span
   * when `state` is null or the provider no longer knows it (`full: true`). Transparent, free and
   * cancelled events do not block; recurrences are expanded into the span.
   */
  changes(calendarId: string, args: ChangesRange & { state: string | null }): Promise<CalendarChanges>;
  /**
   * Creates the event, or updates it when the same uid is already there; returns the provider's
   * event id, and the meeting's join link when `wantsMeeting` and the provider made one.
   */
  createEvent(calendarId: string, event: CalendarEvent): Promise<CreatedEvent>;
  updateEvent(calendarId: string, eventId: string, event: CalendarEvent): Promise<void>;
  /** Removes the event; one that is already gone counts as removed. */
  deleteEvent(calendarId: string, eventId: string): Promise<void>;
  /** Push notifications of changes, where the provider offers them (Google, Graph). */
  push?: CalendarPush;
}

/** What an OAuth code exchange yields. */
export type OAuthGrant = {
  refreshToken: string;
  access: AccessToken;
  /** The account's address (Google: the primary calendar's id; Microsoft: /me mail or UPN). */
  email: string;
};

/** The OAuth half of provider_a and provider_b. */
export interface OAuthProvider {
  readonly id: OAuthProviderId;
  /** Whether the client id and secret are configured; without them authorize answers 503. */
  configured(): boolean;
  /** The consent URL: offline access, calendar scopes, `state`, PKCE S256 `codeChallenge`. */
  authorizeUrl(args: { state: string; redirectUri: string; codeChallenge: string }): string;
  /** Exchanges the callback's code (with the PKCE verifier) for tokens and the account's address. */
  exchangeCode(args: { code: string; redirectUri: string; codeVerifier: string }): Promise<OAuthGrant>;
  /**
   * A client for the account. `access` is the stored access token, if any still valid;
   * `onAccessToken` is called with each new one the client obtains by refreshing, so the caller
   * can store it. An `invalid_grant` refresh throws CalendarError("auth").
   */
  client(args: {
    refreshToken: string;
    access: AccessToken | undefined;
    onAccessToken: (token: AccessToken) => Promise<void>;
    /**
     * Called when the provider rotates the refresh token (Microsoft does on every refresh; the
     * old one keeps its own expiry), so the caller stores the newest one.
     */
    onRefreshToken?: (refreshToken: string) => Promise<void>;
  }): CalendarClient;
  /**
   * Ends the grant at the provider (on disconnect), where the provider offers it (Google). Throws
   * CalendarError; the caller treats it as best effort.
   */
  revoke?(refreshToken: string): Promise<void>;
}

// ---- push notifications (decisions §17) ----

/** A push subscription at the provider for one calendar's events: a Google channel, a Graph subscription. */
export type PushSubscription = {
  /** Google: the channel id (chosen here); Graph: the subscription id (given by Graph). */
  channelId: string;
  /** Google's resourceId (needed to stop the channel); null for Graph. */
  resourceId: string | null;
  /** When the provider ends it, epoch ms. */
  expiresAt: number;
};

/** Push for one connected account, where the provider offers it. Every call may throw CalendarError. */
export interface CalendarPush {
  /** The longest life the provider grants one subscription, in ms. */
  readonly maxLifetimeMs: number;
  /**
   * Asks the provider to POST to `address` (https) whenever the calendar's events change,
   * presenting `secret` (Google's channel token, Graph's clientState), until about `expiresAt`.
   */
  subscribe(calendarId: string, args: { address: string; secret: string; expiresAt: number }): Promise<PushSubscription>;
  /** Moves the expiry on where the provider can (Graph); Google cannot: a new channel replaces the old one. */
  renew?(subscription: PushSubscription, expiresAt: number): Promise<PushSubscription>;
  /** Ends it at the provider; one that is already gone counts as ended. */
  unsubscribe(subscription: Pick<PushSubscription, "channelId" | "resourceId">): Promise<void>;
}
