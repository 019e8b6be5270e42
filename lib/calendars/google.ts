import "server-only";
import { createHash, randomUUID } from "node:crypto";
// The calendar module alone: `import { google } from "googleapis"` loads all ~400 generated APIs
// (≈700 ms at start here, and 200 MB of types for tsc); this is the code `google.calendar()` runs.
import { auth, calendar, type calendar_v3 } from "googleapis/build/src/apis/calendar";
import { DateTime } from "luxon";
import { getConfig } from "@/lib/config";
import { log } from "@/lib/log";
import {
  CalendarError,
  type AccessToken,
  type BusyRange,
  type CalendarChanges,
  type CalendarClient,
  type ChangesRange,
  type CalendarEvent,
  type ExternalCalendar,
  type CalendarPush,
  type OAuthProvider,
  deleteIgnoringGone,
} from "./types";
import { calendarError, revokeError, type ProviderFailure, type TokenPhase } from "./errors";

// provider_a: Google Calendar through googleapis. Every address comes from
// getConfig().googleEndpoints when a client is made, so tests and other deployments can point
// it elsewhere. Failures leave here only as CalendarError, whose messages never carry a token.

type OAuth2Client = InstanceType<typeof auth.OAuth2>;
type Credentials = OAuth2Client["credentials"];
type CodeChallengeMethod = NonNullable<NonNullable<Parameters<OAuth2Client["generateAuthUrl"]>[0]>["code_challenge_method"]>;

/** `calendar` (full access), if granted earlier (include_granted_scopes), covers both. */
const FULL_SCOPE = "https://www.googleapis.com/auth/calendar";
const SCOPES = ["https://www.googleapis.com/auth/calendar.readonly", "https://www.googleapis.com/auth/calendar.events"];
/** freebusy.query answers for at most this many calendars (`calendarExpansionMax`). */
const FREEBUSY_MAX_CALENDARS = 50;
/** Google sends these as 403, but they mean "slow down", like a 429. */
const RATE_LIMIT_REASONS = new Set(["rateLimitExceeded", "userRateLimitExceeded"]);
/** events.list's largest page. */
const EVENTS_PAGE = 2500;
/** Used when a token answer omits expires_in (Google's tokens live an hour). */
const DEFAULT_TOKEN_LIFETIME_MS = 3600_000;

function settings() {
  const config = getConfig();
  if (!config.google) {
    throw new CalendarError("unavailable", "Google Calendar is not configured on this server (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET)");
  }
  return { ...config.google, ...config.googleEndpoints, timeoutMs: config.calendarTimeoutMs };
}

function oauthClient(redirectUri?: string): OAuth2Client {
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
function callOptions() {
  return { rootUrl: `${getConfig().googleEndpoints.apiBaseUrl}/` };
}

/** Google event ids allow base32hex (a–v, 0–9), 5–1024 characters: hex of a hash fits. */
export function googleEventId(uid: string): string {
  return createHash("sha256").update(uid).digest("hex");
}

function toGoogleEvent(event: CalendarEvent): calendar_v3.Schema$Event {
  return {
    summary: event.title,
    description: event.description,
    location: event.location,
    start: { dateTime: new Date(event.start).toISOString(), timeZone: event.timeZone },
    end: { dateTime: new Date(event.end).toISOString(), timeZone: event.timeZone },
    attendees: event.attendees.map((a) => ({ email: a.email, displayName: a.name })),
    // An update through the 409 path must also revive an event deleted in Google (kept as cancelled).
    status: "confirmed",
  };
}

/**
 * One event of events.list as busy time in [from, to): nothing when it leaves the time free
 * (cancelled, transparent, or declined by the account itself). All-day events (`date`) are the
 * host's days.
 */
export function googleEventBusy(e: calendar_v3.Schema$Event, range: ChangesRange): BusyRange[] {
  if (e.status === "cancelled" || e.transparency === "transparent") return [];
  if (e.attendees?.some((a) => a.self && a.responseStatus === "declined")) return [];
  const at = (t: calendar_v3.Schema$EventDateTime | undefined) => {
    if (t?.dateTime) return Date.parse(t.dateTime);
    const day = t?.date ? DateTime.fromISO(t.date, { zone: range.timeZone }) : undefined;
    return day?.isValid ? day.toMillis() : NaN;
  };
  const start = Math.max(at(e.start), range.from);
  const end = Math.min(at(e.end), range.to);
  if (Number.isNaN(start) || Number.isNaN(end) || start >= end) return [];
  return [e.id ? { start, end, eventId: e.id } : { start, end }];
}

/**
 * A Google Meet for the event (decisions §17): conferenceData.createRequest, which Google reads
 * only with conferenceDataVersion=1. The requestId is the event's own id, so a retried insert
 * never makes a second meeting. Later updates (patch, version 0) leave the meeting as it is.
 */
function meetingRequest(event: CalendarEvent, eventId: string) {
  if (!event.wantsMeeting) return undefined;
  return {
    params: { conferenceDataVersion: 1 },
    body: { conferenceData: { createRequest: { requestId: eventId, conferenceSolutionKey: { type: "hangoutsMeet" } } } } satisfies calendar_v3.Schema$Event,
  };
}

/** The meeting's join link: the video entry point (hangoutLink in older answers). */
function meetingUrlOf(event: calendar_v3.Schema$Event | undefined): string | undefined {
  const video = event?.conferenceData?.entryPoints?.find((p) => p.entryPointType === "video")?.uri;
  return video ?? event?.hangoutLink ?? undefined;
}

function toAccessToken(tokens: Credentials): AccessToken | undefined {
  if (!tokens.access_token) return undefined;
  return { accessToken: tokens.access_token, expiresAt: tokens.expiry_date ?? Date.now() + DEFAULT_TOKEN_LIFETIME_MS };
}

// ---- errors ----

type HttpFailure = {
  config?: { url?: string | URL };
  response?: { status?: number; data?: unknown; headers?: { get?(name: string): string | null } };
  code?: unknown;
  error?: { name?: string; cause?: { code?: unknown } };
};

/** gaxios errors are recognised by shape: googleapis and google-auth-library carry separate gaxios copies. */
function asHttpFailure(e: unknown): HttpFailure | undefined {
  return e instanceof Error && "config" in e ? (e as HttpFailure) : undefined;
}

function statusOf(e: unknown): number | undefined {
  return asHttpFailure(e)?.response?.status;
}

function isTokenEndpoint(failure: HttpFailure): boolean {
  const url = failure.config?.url;
  return url !== undefined && new URL(String(url)).href === new URL(getConfig().googleEndpoints.tokenUrl).href;
}

const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/** What a gaxios failure says, in the terms of lib/calendars/errors.ts; undefined when it is no HTTP failure. */
function failureOf(e: unknown): ProviderFailure | undefined {
  const failure = asHttpFailure(e);
  if (!failure) return undefined;
  const status = failure.response?.status;
  if (status === undefined) {
    const timedOut = failure.error?.name === "TimeoutError" || failure.error?.name === "AbortError";
    return { type: "no_answer", timedOut, code: text(failure.error?.cause?.code ?? failure.code), timeoutMs: getConfig().calendarTimeoutMs };
  }
  const retryAfter = failure.response?.headers?.get?.("retry-after");
  if (isTokenEndpoint(failure)) {
    const data = (failure.response?.data ?? {}) as { error?: unknown; error_description?: unknown };
    return { type: "token", status, error: text(data.error), description: text(data.error_description), retryAfter };
  }
  const body = (failure.response?.data ?? {}) as { error?: { message?: unknown; errors?: { reason?: unknown }[] } };
  const reasons = (body.error?.errors ?? []).map((r) => r.reason);
  const slowDown = status === 403 && reasons.some((r) => typeof r === "string" && RATE_LIMIT_REASONS.has(r));
  return { type: "api", status, message: text(body.error?.message), retryAfter, slowDown };
}

/** Any failure of a Google call as CalendarError; `exchange` is the consent callback's code exchange. */
function toCalendarError(e: unknown, action: string, phase: TokenPhase): unknown {
  if (e instanceof CalendarError) return e;
  const failure = failureOf(e);
  // Not an HTTP failure: a bug, let it surface as one.
  return failure ? calendarError("google", action, failure, phase) : e;
}

// ---- the client ----

function googleClient(args: Parameters<OAuthProvider["client"]>[0]): CalendarClient {
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

  return {
    async listCalendars() {
      const calendars: ExternalCalendar[] = [];
      let pageToken: string | undefined;
      do {
        const { data } = await call("Listing Google calendars", () =>
          api.calendarList.list({ maxResults: 250, ...(pageToken ? { pageToken } : {}) }, callOptions()),
        );
        for (const entry of data.items ?? []) {
          if (!entry.id || entry.deleted) continue;
          calendars.push({
            externalId: entry.id,
            name: entry.summaryOverride ?? entry.summary ?? entry.id,
            isPrimary: entry.primary === true,
            writable: entry.accessRole === "owner" || entry.accessRole === "writer",
          });
        }
        pageToken = data.nextPageToken ?? undefined;
      } while (pageToken);
      return calendars;
    },

    async busy(calendarIds, range) {
      const result = new Map<string, BusyRange[]>();
      for (let i = 0; i < calendarIds.length; i += FREEBUSY_MAX_CALENDARS) {
        const chunk = calendarIds.slice(i, i + FREEBUSY_MAX_CALENDARS);
        const { data } = await call("Reading Google free/busy", () =>
          api.freebusy.query(
            {
              requestBody: {
                timeMin: new Date(range.from).toISOString(),
                timeMax: new Date(range.to).toISOString(),
                timeZone: range.timeZone,
                items: chunk.map((id) => ({ id })),
              },
            },
            callOptions(),
          ),
        );
        for (const id of chunk) {
          const entry = data.calendars?.[id];
          // An entry with errors (notFound, internalError…) is no answer, not "free".
          if (!entry || (entry.errors?.length ?? 0) > 0) continue;
          result.set(
            id,
            (entry.busy ?? []).flatMap((b) => {
              const start = Date.parse(b.start ?? "");
              const end = Date.parse(b.end ?? "");
              return Number.isNaN(start) || Number.isNaN(end) ? [] : [{ start, end }];
            }),
          );
        }
      }
      return result;
    },

    async changes(calendarId, { state, ...range }) {
      // A full read lists the span's events (recurrences expanded) and ends in a nextSyncToken;
      // with that token Google answers only what changed since, deletions as status "cancelled".
      const read = async (syncToken: string | undefined): Promise<CalendarChanges> => {
        const upserts = new Map<string, BusyRange[]>();
        const removed: string[] = [];
        let pageToken: string | undefined;
        for (;;) {
          const window = syncToken ? { syncToken } : { timeMin: new Date(range.from).toISOString(), timeMax: new Date(range.to).toISOString() };
          const { data } = await call("Reading Google events", () =>
            api.events.list({ calendarId, singleEvents: true, maxResults: EVENTS_PAGE, ...window, ...(pageToken ? { pageToken } : {}) }, callOptions()),
          );
          for (const e of data.items ?? []) {
            if (!e.id) continue;
            if (e.status === "cancelled") {
              upserts.delete(e.id);
              removed.push(e.id);
            } else upserts.set(e.id, googleEventBusy(e, range));
          }
          pageToken = data.nextPageToken ?? undefined;
          if (pageToken) continue;
          if (!data.nextSyncToken) throw new CalendarError("rejected", "Reading Google events: Google sent no sync token");
          return { full: !syncToken, upserts, removed, state: data.nextSyncToken };
        }
      };
      if (!state) return read(undefined);
      try {
        return await read(state);
      } catch (e) {
        // 410 fullSyncRequired: the token expired or Google dropped it; read the span whole again.
        if (e instanceof CalendarError && e.status === 410) return read(undefined);
        throw e;
      }
    },

    async createEvent(calendarId, event) {
      const id = googleEventId(event.uid);
      const meeting = meetingRequest(event, id);
      const requestBody = { ...toGoogleEvent(event), ...meeting?.body };
      let written: calendar_v3.Schema$Event;
      try {
        ({ data: written } = await call("Creating the Google event", () =>
          api.events.insert({ calendarId, sendUpdates: "none", ...meeting?.params, requestBody: { ...requestBody, id } }, callOptions()),
        ));
      } catch (e) {
        // 409: this booking's event is already there (an earlier attempt got through): make it
        // current. The same requestId asks for no second meeting: Google keeps the one it made.
        if (!(e instanceof CalendarError && e.status === 409)) throw e;
        ({ data: written } = await call("Updating the Google event", () =>
          api.events.update({ calendarId, eventId: id, sendUpdates: "none", ...meeting?.params, requestBody }, callOptions()),
        ));
      }
      const meetingUrl = meeting ? meetingUrlOf(written) : undefined;
      return meetingUrl ? { eventId: id, meetingUrl } : { eventId: id };
    },

    async updateEvent(calendarId, eventId, event) {
      await call("Updating the Google event", () =>
        api.events.patch({ calendarId, eventId, sendUpdates: "none", requestBody: toGoogleEvent(event) }, callOptions()),
      );
    },

    deleteEvent: (calendarId, eventId) =>
      deleteIgnoringGone(() => call("Deleting the Google event", () => api.events.delete({ calendarId, eventId, sendUpdates: "none" }, callOptions()))),

    push: googlePush(api, call),
  };
}

// ---- push: watch channels (decisions §17) ----

/** Google's default (and what it grants for events) is a week; it may answer with less. */
const CHANNEL_LIFETIME_MS = 7 * 86_400_000;

type GoogleCall = <T>(action: string, request: () => Promise<T>) => Promise<T>;

/**
 * `events.watch` on a calendar: Google POSTs to `address` with X-Goog-Channel-ID, the channel
 * token we chose, X-Goog-Resource-ID/-State on every change (`sync` once at the start). A
 * channel cannot be extended: the caller opens a new one and stops the old.
 */
function googlePush(api: calendar_v3.Calendar, call: GoogleCall): CalendarPush {
  return {
    maxLifetimeMs: CHANNEL_LIFETIME_MS,
    async subscribe(calendarId, { address, secret, expiresAt }) {
      const id = randomUUID();
      const ttlSeconds = Math.max(60, Math.round((Math.min(expiresAt - Date.now(), CHANNEL_LIFETIME_MS)) / 1000));
      const { data } = await call("Watching the Google calendar", () =>
        api.events.watch({ calendarId, requestBody: { id, type: "web_hook", address, token: secret, params: { ttl: String(ttlSeconds) } } }, callOptions()),
      );
      if (!data.resourceId) throw new CalendarError("rejected", "Watching the Google calendar: Google returned no resourceId");
      const expiration = Number(data.expiration);
      return { channelId: data.id ?? id, resourceId: data.resourceId, expiresAt: Number.isFinite(expiration) && expiration > 0 ? expiration : Date.now() + ttlSeconds * 1000 };
    },
    unsubscribe: ({ channelId, resourceId }) =>
      deleteIgnoringGone(() =>
        call("Stopping the Google channel", () => api.channels.stop({ requestBody: { id: channelId, resourceId: resourceId ?? undefined } }, callOptions())),
      ),
  };
}

// ---- the provider ----

export const googleProvider: OAuthProvider = {
  id: "provider_a",

  configured: () => getConfig().google !== undefined,

  authorizeUrl({ state, redirectUri, codeChallenge }) {
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
  },

  async exchangeCode({ code, redirectUri, codeVerifier }) {
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
  },

  client: googleClient,

  async revoke(refreshToken) {
    try {
      // Revoking the refresh token ends the whole grant: its access tokens stop working too.
      await oauthClient().revokeToken(refreshToken);
    } catch (e) {
      // Not an HTTP failure: a bug, let it surface as one.
      if (!asHttpFailure(e)) throw e;
      throw revokeError("google", statusOf(e));
    }
  },
};
