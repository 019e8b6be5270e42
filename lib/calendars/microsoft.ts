import "server-only";
import { createHash } from "node:crypto";
import { DateTime } from "luxon";
import { getConfig } from "@/lib/config";
import { log } from "@/lib/log";
import {
  CalendarError,
  type AccessToken,
  type BusyRange,
  type CalendarChanges,
  type CalendarClient,
  type CalendarEvent,
  type ExternalCalendar,
  type CalendarPush,
  type OAuthProvider,
  deleteIgnoringGone,
} from "./types";
import { calendarError, type TokenPhase } from "./errors";

// provider_b: Microsoft 365 / Outlook calendars through Microsoft Graph and the identity
// platform's OAuth 2.0 v2 endpoints, as plain REST calls. Every address comes from
// getConfig().microsoftEndpoints at call time, so tests and sovereign clouds can point it
// elsewhere. Failures leave here only as CalendarError, whose messages never carry a token.

const SCOPE = "offline_access User.Read Calendars.ReadWrite";
/** A stored access token this close to its expiry is refreshed first rather than sent. */
const REFRESH_MARGIN_MS = 60_000;
const DAY_MS = 86_400_000;
/** A page size Graph accepts for events; it may still answer with fewer and a nextLink. */
const EVENTS_PAGE = 250;
/** The delta page size asked for (`Prefer: odata.maxpagesize`); Graph may send fewer. */
const DELTA_PAGE = 200;
/** Graph's words for a delta link it no longer knows: start again with a full read. */
const RESYNC_CODES = /\b(syncStateNotFound|syncStateInvalid|resyncRequired)\b/;
/** `showAs` values that leave the time bookable. */
const NOT_BUSY = new Set(["free", "workingElsewhere"]);

function settings() {
  const config = getConfig();
  if (!config.microsoft) {
    throw new CalendarError("unavailable", "Microsoft 365 calendars are not configured on this server (MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET)");
  }
  return { ...config.microsoft, ...config.microsoftEndpoints, timeoutMs: config.calendarTimeoutMs };
}

// ---- HTTP and errors ----

type Answer = { status: number; headers: Headers; body: unknown };

const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/** One request with the configured timeout; timeouts and network failures become "unavailable". */
async function send(url: string, init: RequestInit, action: string): Promise<Answer> {
  const { timeoutMs } = settings();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined; // a proxy's HTML error page: the status says enough
    }
    return { status: res.status, headers: res.headers, body };
  } catch (e) {
    const name = e instanceof Error ? e.name : "";
    const code = e instanceof Error && e.cause && typeof e.cause === "object" && "code" in e.cause ? e.cause.code : undefined;
    throw calendarError("microsoft", action, { type: "no_answer", timedOut: name === "TimeoutError" || name === "AbortError", code: text(code), timeoutMs });
  }
}

/** The identity platform's refusal of a token request (RFC 6749 §5.2), as CalendarError. */
function tokenError(answer: Answer, action: string, phase: TokenPhase): CalendarError {
  const data = (answer.body ?? {}) as { error?: unknown; error_description?: unknown };
  const failure = { type: "token", status: answer.status, error: text(data.error), description: text(data.error_description), retryAfter: answer.headers.get("retry-after") } as const;
  return calendarError("microsoft", action, failure, phase);
}

/** Graph's refusal (`{ error: { code, message } }`), as CalendarError. */
function graphError(answer: Answer, action: string): CalendarError {
  const error = ((answer.body ?? {}) as { error?: { code?: unknown; message?: unknown } }).error ?? {};
  return calendarError("microsoft", action, { type: "api", status: answer.status, code: text(error.code), message: text(error.message), retryAfter: answer.headers.get("retry-after") });
}

type Tokens = { access: AccessToken; refreshToken: string | undefined };

async function tokenRequest(params: Record<string, string>, action: string): Promise<Tokens> {
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

// ---- wire shapes ----

type GraphDateTime = { dateTime?: string; timeZone?: string };
type GraphEvent = {
  id?: string;
  /** Set on a delta item whose event was deleted (or left the window). */
  "@removed"?: { reason?: string };
  subject?: string;
  start?: GraphDateTime;
  end?: GraphDateTime;
  showAs?: string;
  isCancelled?: boolean;
  isAllDay?: boolean;
  location?: { displayName?: string };
};
type GraphCalendar = { id?: string; name?: string; canEdit?: boolean; isDefaultCalendar?: boolean };

/** OData options keep their `$`: values are encoded, the names are Graph's own. */
function query(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join("&");
}

/** Graph's dateTime: no offset, read in the zone named beside it (UTC here: we ask for it). */
const toGraphDateTime = (ms: number) => new Date(ms).toISOString().slice(0, -1);

function parseUtc(dateTime: string | undefined): number {
  if (!dateTime) return NaN;
  return Date.parse(/(?:Z|[+-]\d\d:\d\d)$/i.test(dateTime) ? dateTime : `${dateTime}Z`);
}

/** Graph's transactionId for a booking's event: UUID-shaped, the same for every retry of the same uid. */
export function microsoftTransactionId(uid: string): string {
  const hex = createHash("sha256").update(uid).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function toGraphEvent(event: CalendarEvent) {
  return {
    subject: event.title,
    body: { contentType: "text", content: event.description },
    start: { dateTime: toGraphDateTime(event.start), timeZone: "UTC" },
    end: { dateTime: toGraphDateTime(event.end), timeZone: "UTC" },
    location: { displayName: event.location },
    // No attendees: Graph would have Outlook mail its own invitation (and later a cancellation)
    // from the host's mailbox, and the guest already gets ours (decisions §12). The guest is
    // named in the body instead.
  };
}

function sameAs(found: GraphEvent, event: CalendarEvent): boolean {
  return (
    found.subject === event.title &&
    (found.location?.displayName ?? "") === event.location &&
    parseUtc(found.start?.dateTime) === event.start &&
    parseUtc(found.end?.dateTime) === event.end
  );
}

/** An event as busy time in [from, to), or nothing when it leaves the time free. */
export function toBusy(e: GraphEvent, range: { from: number; to: number; timeZone: string }): BusyRange | undefined {
  if (e.isCancelled || (e.showAs && NOT_BUSY.has(e.showAs))) return undefined;
  let start: number;
  let end: number;
  if (e.isAllDay) {
    // All-day events come back midnight to midnight whatever zone is asked for: they are
    // days, and the host's days are what they block.
    const day = (value: string | undefined) => {
      const date = (value ?? "").slice(0, 10);
      const local = DateTime.fromISO(date, { zone: range.timeZone });
      return (local.isValid ? local : DateTime.fromISO(date, { zone: "UTC" })).toMillis();
    };
    start = day(e.start?.dateTime);
    end = day(e.end?.dateTime);
  } else {
    start = parseUtc(e.start?.dateTime);
    end = parseUtc(e.end?.dateTime);
  }
  if (Number.isNaN(start) || Number.isNaN(end)) return undefined;
  // Clipped like Google's free/busy, so the sync's consecutive windows join without overlap.
  start = Math.max(start, range.from);
  end = Math.min(end, range.to);
  if (start >= end) return undefined;
  return e.id ? { start, end, eventId: e.id } : { start, end };
}

// ---- the client ----

function microsoftClient(args: Parameters<OAuthProvider["client"]>[0]): CalendarClient {
  const { onAccessToken, onRefreshToken } = args;
  // Microsoft hands out a new refresh token with each refresh: this client uses the newest one,
  // and hands it to onRefreshToken so the stored grant does not age out (90 days from issue).
  let refreshToken = args.refreshToken;
  let token = args.access;
  let refreshes = 0;
  let refreshing: Promise<string> | undefined;

  /** One refresh at a time: concurrent calls that find the token stale share it. */
  function refresh(): Promise<string> {
    refreshing ??= (async () => {
      try {
        const fresh = await tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken }, "Refreshing the Microsoft access token");
        if (fresh.refreshToken && fresh.refreshToken !== refreshToken) {
          refreshToken = fresh.refreshToken;
          await onRefreshToken?.(fresh.refreshToken).catch((err: unknown) => log.warn({ err }, "could not store a rotated Microsoft refresh token"));
        }
        token = fresh.access;
        refreshes += 1;
        await onAccessToken(fresh.access).catch((err: unknown) => log.warn({ err }, "could not store a refreshed Microsoft access token"));
        return fresh.access.accessToken;
      } finally {
        refreshing = undefined;
      }
    })();
    return refreshing;
  }

  async function bearer(): Promise<string> {
    if (token && token.expiresAt - REFRESH_MARGIN_MS > Date.now()) return token.accessToken;
    return refresh();
  }

  async function graph(method: string, pathOrUrl: string, action: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
    const url = pathOrUrl.startsWith("/") ? `${settings().graphBaseUrl}${pathOrUrl}` : pathOrUrl;
    const request = (accessToken: string) =>
      send(
        url,
        {
          method,
          headers: {
            accept: "application/json",
            authorization: `Bearer ${accessToken}`,
            ...(options.body === undefined ? {} : { "content-type": "application/json" }),
            ...options.headers,
          },
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
        },
        action,
      );
    const before = refreshes;
    const used = await bearer();
    let answer = await request(used);
    if (answer.status === 401 && refreshes === before) {
      // A token we still believed valid was refused (revoked session, clock skew, continuous
      // access evaluation): once more with a fresh one. A 401 right after a refresh is final.
      answer = await request(token && token.accessToken !== used ? token.accessToken : await refresh());
    }
    if (answer.status >= 200 && answer.status < 300) return answer;
    throw graphError(answer, action);
  }

  /** Every item of a collection, following @odata.nextLink. */
  async function all<T>(path: string, action: string, headers?: Record<string, string>): Promise<T[]> {
    const items: T[] = [];
    const graphOrigin = new URL(settings().graphBaseUrl).origin;
    let next: string | undefined = path;
    while (next) {
      const { body } = await graph("GET", next, action, { headers });
      const page = (body ?? {}) as { value?: T[]; "@odata.nextLink"?: unknown };
      items.push(...(page.value ?? []));
      next = typeof page["@odata.nextLink"] === "string" ? page["@odata.nextLink"] : undefined;
      // The link carries our bearer token with it: only ever to Graph itself.
      if (next && new URL(next).origin !== graphOrigin) throw new CalendarError("rejected", `${action}: Microsoft sent a paging link to another host`);
    }
    return items;
  }

  /**
   * Walks a calendarView delta from `url` (the first request, or a stored deltaLink) through
   * every nextLink to the deltaLink, which is kept as the state of the next read.
   */
  async function delta(url: string, full: boolean, range: { from: number; to: number; timeZone: string }): Promise<CalendarChanges> {
    const action = "Reading Microsoft calendar changes";
    const graphOrigin = new URL(settings().graphBaseUrl).origin;
    const upserts = new Map<string, BusyRange[]>();
    const removed: string[] = [];
    let next = url;
    for (;;) {
      // The links carry our bearer token with them: only ever to Graph itself.
      if (!next.startsWith("/") && new URL(next).origin !== graphOrigin) throw new CalendarError("rejected", `${action}: Microsoft sent a link to another host`);
      const { body } = await graph("GET", next, action, { headers: { prefer: `outlook.timezone="UTC", odata.maxpagesize=${DELTA_PAGE}` } });
      const page = (body ?? {}) as { value?: GraphEvent[]; "@odata.nextLink"?: unknown; "@odata.deltaLink"?: unknown };
      for (const e of page.value ?? []) {
        if (!e.id) continue;
        if (e["@removed"]) {
          upserts.delete(e.id);
          removed.push(e.id);
        } else {
          const busy = toBusy(e, range);
          upserts.set(e.id, busy ? [busy] : []);
        }
      }
      if (typeof page["@odata.nextLink"] === "string") {
        next = page["@odata.nextLink"];
        continue;
      }
      if (typeof page["@odata.deltaLink"] !== "string") throw new CalendarError("rejected", `${action}: Microsoft sent neither a next nor a delta link`);
      return { full, upserts, removed, state: page["@odata.deltaLink"] };
    }
  }

  async function patch(eventId: string, event: CalendarEvent): Promise<void> {
    await graph("PATCH", `/me/events/${encodeURIComponent(eventId)}`, "Updating the Microsoft event", { body: toGraphEvent(event) });
  }

  return {
    async listCalendars() {
      const calendars = await all<GraphCalendar>(
        `/me/calendars?${query({ $select: "id,name,canEdit,isDefaultCalendar", $top: "100" })}`,
        "Listing Microsoft calendars",
      );
      return calendars.flatMap((c): ExternalCalendar[] =>
        c.id ? [{ externalId: c.id, name: c.name || c.id, isPrimary: c.isDefaultCalendar === true, writable: c.canEdit === true }] : [],
      );
    },

    async busy(calendarIds, range) {
      const result = new Map<string, BusyRange[]>();
      // Graph matches all-day events against the window as if they were UTC days: ask for a day
      // more on each side and keep what overlaps once they are read in the host's zone.
      const window = query({
        startDateTime: new Date(range.from - DAY_MS).toISOString(),
        endDateTime: new Date(range.to + DAY_MS).toISOString(),
        $select: "start,end,showAs,isCancelled,isAllDay,id",
        $top: String(EVENTS_PAGE),
      });
      // One calendar at a time: Graph throttles a mailbox at four concurrent requests.
      for (const id of calendarIds) {
        try {
          const events = await all<GraphEvent>(`/me/calendars/${encodeURIComponent(id)}/calendarView?${window}`, "Reading Microsoft busy time", {
            prefer: 'outlook.timezone="UTC"',
          });
          result.set(id, events.flatMap((e) => toBusy(e, range) ?? []));
        } catch (e) {
          // A calendar removed since it was listed has no answer; the others still count.
          if (!(e instanceof CalendarError && e.kind === "not_found")) throw e;
        }
      }
      return result;
    },

    async changes(calendarId, { state, ...range }) {
      // Graph matches all-day events as UTC days: the window is a day wider on each side, and
      // toBusy cuts each event to the span in the host's zone.
      const first = `/me/calendars/${encodeURIComponent(calendarId)}/calendarView/delta?${query({
        startDateTime: new Date(range.from - DAY_MS).toISOString(),
        endDateTime: new Date(range.to + DAY_MS).toISOString(),
      })}`;
      if (!state) return delta(first, true, range);
      try {
        return await delta(state, false, range);
      } catch (e) {
        // 410 Gone (syncStateNotFound) or resyncRequired: the delta link is spent; read the span whole.
        if (e instanceof CalendarError && (e.status === 410 || RESYNC_CODES.test(e.message))) return delta(first, true, range);
        throw e;
      }
    },

    async createEvent(calendarId, event) {
      // A Teams meeting (decisions §17): Graph makes it with the event and answers its join link.
      const meeting = event.wantsMeeting ? { isOnlineMeeting: true, onlineMeetingProvider: "teamsForBusiness" } : {};
      const { body } = await graph("POST", `/me/calendars/${encodeURIComponent(calendarId)}/events`, "Creating the Microsoft event", {
        body: { ...toGraphEvent(event), ...meeting, transactionId: microsoftTransactionId(event.uid) },
      });
      const created = (body ?? {}) as GraphEvent & { onlineMeeting?: { joinUrl?: unknown } | null };
      if (!created.id) throw new CalendarError("rejected", "Creating the Microsoft event: Microsoft returned no event id");
      // A retried POST Graph recognises by its transactionId returns the event as first written:
      // the booking may have moved since, so it is brought up to date (a PATCH keeps the meeting).
      if (!sameAs(created, event)) await patch(created.id, event);
      const joinUrl = created.onlineMeeting?.joinUrl;
      return event.wantsMeeting && typeof joinUrl === "string" && joinUrl ? { eventId: created.id, meetingUrl: joinUrl } : { eventId: created.id };
    },

    async updateEvent(_calendarId, eventId, event) {
      // Graph event ids are unique in the mailbox: the calendar is not part of the address.
      await patch(eventId, event);
    },

    deleteEvent: (_calendarId, eventId) => deleteIgnoringGone(() => graph("DELETE", `/me/events/${encodeURIComponent(eventId)}`, "Deleting the Microsoft event")),

    push: graphPush(graph),
  };
}

// ---- push: Graph subscriptions (decisions §17) ----

/** Graph keeps a subscription to events at most 4230 minutes; a little less leaves room for clock skew. */
const SUBSCRIPTION_LIFETIME_MS = 4200 * 60_000;

type GraphCall = (method: string, pathOrUrl: string, action: string, options?: { body?: unknown }) => Promise<Answer>;

function toSubscription(body: unknown, action: string): { channelId: string; resourceId: null; expiresAt: number } {
  const sub = (body ?? {}) as { id?: unknown; expirationDateTime?: unknown };
  const expiresAt = Date.parse(typeof sub.expirationDateTime === "string" ? sub.expirationDateTime : "");
  if (typeof sub.id !== "string" || !sub.id || Number.isNaN(expiresAt)) throw new CalendarError("rejected", `${action}: Microsoft returned no subscription`);
  return { channelId: sub.id, resourceId: null, expiresAt };
}

/**
 * `POST /subscriptions` on a calendar's events. Before answering, Graph POSTs to the
 * notificationUrl with `?validationToken=…` and wants it echoed within 10 s (our hook route does),
 * then sends each change with our clientState. Renewed in place by PATCH.
 */
function graphPush(graph: GraphCall): CalendarPush {
  const expiry = (expiresAt: number) => new Date(Math.min(expiresAt, Date.now() + SUBSCRIPTION_LIFETIME_MS)).toISOString();
  return {
    maxLifetimeMs: SUBSCRIPTION_LIFETIME_MS,
    async subscribe(calendarId, { address, secret, expiresAt }) {
      const action = "Subscribing to the Microsoft calendar";
      const { body } = await graph("POST", "/subscriptions", action, {
        body: {
          changeType: "created,updated,deleted",
          notificationUrl: address,
          resource: `me/calendars/${encodeURIComponent(calendarId)}/events`,
          expirationDateTime: expiry(expiresAt),
          clientState: secret,
        },
      });
      return toSubscription(body, action);
    },
    async renew(subscription, expiresAt) {
      const action = "Renewing the Microsoft subscription";
      const { body } = await graph("PATCH", `/subscriptions/${encodeURIComponent(subscription.channelId)}`, action, { body: { expirationDateTime: expiry(expiresAt) } });
      return toSubscription(body, action);
    },
    unsubscribe: ({ channelId }) =>
      deleteIgnoringGone(() => graph("DELETE", `/subscriptions/${encodeURIComponent(channelId)}`, "Ending the Microsoft subscription")),
  };
}

// ---- the provider ----

export const microsoftProvider: OAuthProvider = {
  id: "provider_b",

  configured: () => getConfig().microsoft !== undefined,

  authorizeUrl({ state, redirectUri, codeChallenge }) {
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
  },

  async exchangeCode({ code, redirectUri, codeVerifier }) {
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
  },

  client: microsoftClient,
};
