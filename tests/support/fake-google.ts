import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { googleChannels, HookRoute } from "./fake-push";

/**
 * A local stand-in for Google's OAuth 2.0 endpoints and the Calendar API v3, speaking their
 * documented wire formats: the consent page (`GET /o/oauth2/v2/auth`, answered with the 302 a
 * browser would follow), the token endpoint (`POST /token`, form-encoded, PKCE S256, errors as
 * `{"error":"invalid_grant",…}`), and `/calendar/v3/…` (calendarList, freeBusy, events) with bearer
 * tokens and Google's error envelope `{"error":{"code","message","errors":[{reason}]}}`. One
 * account; timed events only. `events.list` pages (`pageToken`) and syncs as Google documents it:
 * a list without `syncToken` ends in a `nextSyncToken`; one with it answers only the events changed
 * since (deleted ones as `status: "cancelled"`), refuses `timeMin`/`timeMax` beside it, and a token
 * the fake has forgotten (`expireSyncTokens`) is `410 fullSyncRequired`. Tests change its state and how the API behaves, and read what it got.
 */

type EventTime = { dateTime: string; timeZone?: string };
export type FakeGoogleEvent = {
  id: string;
  status: "confirmed" | "tentative" | "cancelled";
  start: EventTime;
  end: EventTime;
  transparency?: "opaque" | "transparent";
  summary?: string;
  description?: string;
  location?: string;
  attendees?: { email: string; displayName?: string }[];
  [field: string]: unknown;
};
export type FakeGoogleCalendar = { id: string; summary: string; primary?: boolean; accessRole: "owner" | "writer" | "reader" | "freeBusyReader" };
/** `fail` hits the Calendar API unless `at: "token"` (then refreshes and code exchanges fail); the others hit the API. */
export type FakeGoogleMode = { kind: "ok" } | { kind: "fail"; status: number; at?: "api" | "token" } | { kind: "rateLimit"; status?: 429 | 403 } | { kind: "hang" };

export type FakeGoogle = {
  url: string;
  /** Environment variables that point the service at this fake. */
  env: Record<"GOOGLE_CLIENT_ID" | "GOOGLE_CLIENT_SECRET" | "GOOGLE_AUTH_URL" | "GOOGLE_TOKEN_URL" | "GOOGLE_REVOKE_URL" | "GOOGLE_API_BASE_URL", string>;
  clientId: string;
  clientSecret: string;
  email: string;
  /** The account's calendars (the primary's id is `email`); tests may change it. */
  calendars: FakeGoogleCalendar[];
  /** What the browser does at the consent page: the redirect URL (`?code=…&state=…`) it is sent to. Throws on a bad request. */
  consent(authorizeUrl: string, options?: { deny?: boolean }): Promise<string>;
  addEvent(calendarId: string, event: { start: Date | number; end: Date | number; transparent?: boolean }): FakeGoogleEvent;
  /** The calendar's events, leaving out deleted (cancelled) ones as `events.list` does. */
  events(calendarId: string): FakeGoogleEvent[];
  /** Another client changes an event (e.g. moves it: `{ start: { dateTime }, end: { dateTime } }`). */
  changeEvent(calendarId: string, eventId: string, patch: Partial<FakeGoogleEvent>): FakeGoogleEvent;
  /** Another client deletes an event: Google keeps it as cancelled. */
  deleteEvent(calendarId: string, eventId: string): void;
  /** Every sync token issued so far is forgotten: using one answers 410 fullSyncRequired. */
  expireSyncTokens(): void;
  /** The user removed the app's access: refresh tokens get invalid_grant, access tokens 401. */
  revokeGrant(): void;
  expireAccessTokens(): void;
  /** How the Calendar API (not the OAuth endpoints) answers from now on. */
  behave(mode: FakeGoogleMode): void;
  requests: { method: string; path: string; query: URLSearchParams }[];
  /** Watch channels (events.watch, channels.stop) and their notifications (fake-push.ts). */
  push: ReturnType<typeof googleChannels>;
  /** Delivers notifications for addresses under `from` (https) to `to` (the app over plain HTTP). */
  routeHooks(from: string, to: string): void;
  /** Google Meet conferences made so far (a createRequest honoured). */
  meetingsMade(): number;
  /** Refresh tokens revoked through `POST /revoke`, in order. */
  revoked: string[];
  close(): Promise<void>;
};

const SCOPE = "https://www.googleapis.com/auth/";
const KNOWN_SCOPES = new Set(["openid", "email", "profile", ...["calendar", "calendar.readonly", "calendar.events", "calendar.events.readonly", "calendar.freebusy", "calendar.events.freebusy", "calendar.calendarlist.readonly", "userinfo.email"].map((s) => SCOPE + s)]);
/** Any one of these grants the access: Calendar API reference, "Authorization" of each method. */
const NEEDS = {
  list: ["calendar", "calendar.readonly", "calendar.calendarlist.readonly"],
  freeBusy: ["calendar", "calendar.readonly", "calendar.freebusy", "calendar.events.freebusy"],
  read: ["calendar", "calendar.readonly", "calendar.events", "calendar.events.readonly"],
  write: ["calendar", "calendar.events"],
} as const;

class HttpError extends Error {
  constructor(readonly status: number, readonly body: unknown) {
    super(`HTTP ${status}`);
  }
}
const apiError = (status: number, reason: string, message: string) =>
  new HttpError(status, { error: { code: status, message, errors: [{ domain: "global", reason, message }] } });
const oauthError = (status: number, error: string, description: string) => new HttpError(status, { error, error_description: description });

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const token = (prefix: string) => `${prefix}${randomBytes(24).toString("base64url")}`;
const ms = (t: Date | number) => (typeof t === "number" ? t : t.getTime());

export async function startFakeGoogle(
  options: { accessTokenTtlSeconds?: number; calendarListPageSize?: number; eventsPageSize?: number; redirectUris?: string[] } = {},
): Promise<FakeGoogle> {
  const ttl = options.accessTokenTtlSeconds ?? 3600;
  const eventsPageSize = options.eventsPageSize ?? 250;
  const pageSize = options.calendarListPageSize ?? 100;
  const clientId = `${randomBytes(6).toString("hex")}.apps.googleusercontent.com`;
  const clientSecret = token("GOCSPX-");
  const email = `host-${randomBytes(4).toString("hex")}@gmail.test`;
  const calendars: FakeGoogleCalendar[] = [
    { id: email, summary: email, primary: true, accessRole: "owner" },
    { id: `team-${randomBytes(4).toString("hex")}@group.calendar.google.com`, summary: "Team", accessRole: "writer" },
    { id: "en.usa#holiday@group.v.calendar.google.com", summary: "Holidays in United States", accessRole: "reader" },
  ];
  const eventsByCalendar = new Map<string, Map<string, FakeGoogleEvent>>();
  const codes = new Map<string, { redirectUri: string; challenge: string; scope: string; refresh: boolean }>();
  const refreshTokens = new Map<string, { scope: string }>();
  const accessTokens = new Map<string, { scope: string; expiresAt: number }>();
  const requests: FakeGoogle["requests"] = [];
  const revoked: string[] = [];
  let consentedBefore = false;
  let denyNext = false;
  let mode: FakeGoogleMode = { kind: "ok" };
  /** Every write to an event takes the next number; a sync token names the number it was issued at. */
  let sequence = 0;
  const changedAt = new Map<string, number>(); // `${calendarId}\n${eventId}` → sequence
  let tokenGeneration = 0;
  let meetingsMade = 0;

  const calendarEvents = (calendarId: string) => {
    let events = eventsByCalendar.get(calendarId);
    if (!events) eventsByCalendar.set(calendarId, (events = new Map()));
    return events;
  };

  // ---- OAuth ----

  function authorize(query: URLSearchParams): string {
    const bad = (error: string, why: string) => new HttpError(400, `Error 400: ${error}\n${why}`);
    if (query.get("client_id") !== clientId) throw bad("invalid_client", "The OAuth client was not found.");
    const redirectUri = query.get("redirect_uri") ?? "";
    if (!/^https?:\/\//.test(redirectUri) || (options.redirectUris && !options.redirectUris.includes(redirectUri))) throw bad("redirect_uri_mismatch", redirectUri);
    if (query.get("response_type") !== "code") throw bad("unsupported_response_type", "response_type must be code");
    const scopes = (query.get("scope") ?? "").split(" ").filter(Boolean);
    if (scopes.length === 0 || scopes.some((s) => !KNOWN_SCOPES.has(s))) throw bad("invalid_scope", query.get("scope") ?? "");
    if (!query.get("state")) throw bad("invalid_request", "state is required by this fake (CSRF protection)");
    const challenge = query.get("code_challenge") ?? "";
    if (!/^[\w-]{43,128}$/.test(challenge) || query.get("code_challenge_method") !== "S256") throw bad("invalid_request", "PKCE with S256 is required");
    if (query.get("access_type") !== "offline") throw bad("invalid_request", "access_type=offline is required for a refresh token");
    const back = new URL(redirectUri);
    back.searchParams.set("state", query.get("state") ?? "");
    if (denyNext) {
      denyNext = false;
      back.searchParams.set("error", "access_denied");
      return back.toString();
    }
    // Google issues a refresh token on the first offline consent, and again only with prompt=consent.
    const refresh = !consentedBefore || (query.get("prompt") ?? "").split(" ").includes("consent");
    consentedBefore = true;
    const code = token("4/0A");
    codes.set(code, { redirectUri, challenge, scope: scopes.join(" "), refresh });
    back.searchParams.set("code", code);
    back.searchParams.set("scope", scopes.join(" "));
    return back.toString();
  }

  function issueAccess(scope: string) {
    const access = token("ya29.");
    accessTokens.set(access, { scope, expiresAt: Date.now() + ttl * 1000 });
    return { access_token: access, expires_in: ttl, scope, token_type: "Bearer" };
  }

  function tokenEndpoint(req: IncomingMessage, body: string) {
    if (!(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) throw oauthError(400, "invalid_request", "Invalid content type");
    const form = new URLSearchParams(body);
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const [id, secret] = basic ? Buffer.from(basic, "base64").toString().split(":") : [form.get("client_id"), form.get("client_secret")];
    if (id !== clientId || secret !== clientSecret) throw oauthError(401, "invalid_client", "Unauthorized");
    if (form.get("grant_type") === "authorization_code") {
      const grant = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? ""); // single use, even when the rest is wrong
      if (!grant) throw oauthError(400, "invalid_grant", "Malformed auth code.");
      if (form.get("redirect_uri") !== grant.redirectUri) throw oauthError(400, "redirect_uri_mismatch", "Bad Request");
      const verifier = form.get("code_verifier") ?? "";
      if (createHash("sha256").update(verifier).digest("base64url") !== grant.challenge) throw oauthError(400, "invalid_grant", "Invalid code verifier.");
      const refresh = grant.refresh ? token("1//0g") : undefined;
      if (refresh) refreshTokens.set(refresh, { scope: grant.scope });
      return { ...issueAccess(grant.scope), ...(refresh ? { refresh_token: refresh, refresh_token_expires_in: 604799 } : {}) };
    }
    if (form.get("grant_type") === "refresh_token") {
      const grant = refreshTokens.get(form.get("refresh_token") ?? "");
      if (!grant) throw oauthError(400, "invalid_grant", "Token has been expired or revoked.");
      return issueAccess(grant.scope);
    }
    throw oauthError(400, "unsupported_grant_type", "Invalid grant_type");
  }

  /** Google's revoke endpoint: a refresh token ends its grant (the access tokens of the account with it, in this fake). */
  function revokeEndpoint(given: string) {
    if (refreshTokens.delete(given)) {
      accessTokens.clear();
      revoked.push(given);
      return {};
    }
    if (accessTokens.delete(given)) return {};
    throw oauthError(400, "invalid_token", "Token expired or revoked");
  }

  // ---- Calendar API ----

  function authorizeApi(req: IncomingMessage, need: readonly string[]) {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
    const access = accessTokens.get(bearer);
    if (!access || access.expiresAt <= Date.now()) {
      throw new HttpError(401, {
        error: {
          code: 401,
          message: "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
          errors: [{ message: "Invalid Credentials", domain: "global", reason: "authError", location: "Authorization", locationType: "header" }],
          status: "UNAUTHENTICATED",
        },
      });
    }
    if (!need.some((s) => access.scope.split(" ").includes(SCOPE + s))) throw apiError(403, "insufficientPermissions", "Request had insufficient authentication scopes.");
  }

  function calendarOf(id: string, write: boolean): FakeGoogleCalendar {
    const found = calendars.find((c) => c.id === id);
    if (!found) throw apiError(404, "notFound", "Not Found");
    if (write && found.accessRole !== "owner" && found.accessRole !== "writer") throw apiError(403, "requiredAccessLevel", "You need to have writer access to this calendar.");
    return found;
  }

  function validEvent(event: FakeGoogleEvent): FakeGoogleEvent {
    const start = Date.parse(event.start?.dateTime ?? "");
    const end = Date.parse(event.end?.dateTime ?? "");
    if (Number.isNaN(start)) throw apiError(400, "required", "Missing start time.");
    if (Number.isNaN(end)) throw apiError(400, "required", "Missing end time.");
    if (end < start) throw apiError(400, "timeRangeEmpty", "The specified time range is empty.");
    return event;
  }

  function stored(calendarId: string, event: Record<string, unknown>, id: string): FakeGoogleEvent {
    const now = new Date().toISOString();
    const previous = calendarEvents(calendarId).get(id);
    const next = validEvent({
      kind: "calendar#event",
      created: previous?.created ?? now,
      iCalUID: `${id}@google.com`,
      ...event,
      id,
      status: event.status ?? "confirmed",
      etag: `"${Date.now()}${randomBytes(2).toString("hex")}"`,
      updated: now,
      htmlLink: `https://www.google.com/calendar/event?eid=${id}`,
    } as unknown as FakeGoogleEvent);
    calendarEvents(calendarId).set(id, next);
    changedAt.set(`${calendarId}\n${id}`, ++sequence);
    return next;
  }

  function cancel(calendarId: string, existing: FakeGoogleEvent) {
    calendarEvents(calendarId).set(existing.id, { ...existing, status: "cancelled" });
    changedAt.set(`${calendarId}\n${existing.id}`, ++sequence);
  }

  type SyncToken = { calendarId: string; at: number; generation: number };
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  function decode<T>(value: string): T | undefined {
    try {
      return JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as T;
    } catch {
      return undefined;
    }
  }

  /** events.list, with Google's paging and incremental sync rules. */
  function listEvents(calendarId: string, query: URLSearchParams) {
    const syncTokenText = query.get("syncToken");
    if (syncTokenText !== null) {
      for (const banned of ["timeMin", "timeMax", "orderBy", "q", "updatedMin", "iCalUID", "privateExtendedProperty", "sharedExtendedProperty"]) {
        if (query.has(banned)) throw apiError(400, "invalid", `Sync token cannot be used with ${banned}.`);
      }
      if (query.get("showDeleted") === "false") throw apiError(400, "invalid", "Deleted events are always included in an incremental sync.");
    }
    const size = Math.min(Number(query.get("maxResults") ?? 250) || 250, 2500, eventsPageSize);
    type Page = { offset: number; at: number; since: number };
    let page: Page;
    const pageToken = query.get("pageToken");
    if (pageToken) {
      const decoded = decode<Page>(pageToken);
      if (!decoded) throw apiError(400, "invalid", "Invalid page token value.");
      page = decoded;
    } else if (syncTokenText !== null) {
      const token = decode<SyncToken>(syncTokenText);
      if (!token || token.calendarId !== calendarId) throw apiError(400, "invalid", "Invalid sync token value.");
      if (token.generation !== tokenGeneration) throw apiError(410, "fullSyncRequired", "Sync token is no longer valid, a full sync is required.");
      page = { offset: 0, at: sequence, since: token.at };
    } else {
      page = { offset: 0, at: sequence, since: -1 };
    }
    const from = query.has("timeMin") ? Date.parse(query.get("timeMin")!) : -Infinity;
    const to = query.has("timeMax") ? Date.parse(query.get("timeMax")!) : Infinity;
    if (Number.isNaN(from) || Number.isNaN(to)) throw apiError(400, "badRequest", "Bad Request");
    const incremental = page.since >= 0;
    const showDeleted = incremental || query.get("showDeleted") === "true";
    const matching = [...calendarEvents(calendarId).values()]
      .filter((e) => {
        const seq = changedAt.get(`${calendarId}\n${e.id}`) ?? 0;
        if (seq > page.at) return false; // after this listing began: the next sync sees it
        if (incremental) return seq > page.since;
        if (e.status === "cancelled" && !showDeleted) return false;
        return Date.parse(e.start.dateTime) < to && Date.parse(e.end.dateTime) > from;
      })
      .sort((a, b) => a.id.localeCompare(b.id));
    // A cancelled event in a sync answer carries only what identifies it.
    const items = matching
      .slice(page.offset, page.offset + size)
      .map((e) => (e.status === "cancelled" ? { kind: "calendar#event", etag: e.etag, id: e.id, status: "cancelled" } : e));
    const more = page.offset + size < matching.length;
    return {
      kind: "calendar#events",
      summary: calendarId,
      updated: new Date().toISOString(),
      timeZone: "UTC",
      accessRole: calendarOf(calendarId, false).accessRole,
      items,
      ...(more
        ? { nextPageToken: encode({ ...page, offset: page.offset + size }) }
        : { nextSyncToken: encode({ calendarId, at: page.at, generation: tokenGeneration } satisfies SyncToken) }),
    };
  }

  function freeBusy(body: { timeMin?: string; timeMax?: string; items?: { id?: string }[] }) {
    const from = Date.parse(body.timeMin ?? "");
    const to = Date.parse(body.timeMax ?? "");
    if (Number.isNaN(from) || Number.isNaN(to)) throw apiError(400, "required", "Missing timeMin or timeMax.");
    if (to <= from) throw apiError(400, "timeRangeEmpty", "The specified time range is empty.");
    const answer: Record<string, unknown> = {};
    for (const [index, { id = "" }] of (body.items ?? []).entries()) {
      if (index >= 50) answer[id] = { errors: [{ domain: "calendar", reason: "tooManyCalendarsRequested" }], busy: [] };
      else if (!calendars.some((c) => c.id === id)) answer[id] = { errors: [{ domain: "global", reason: "notFound" }], busy: [] };
      else answer[id] = { busy: busyOf(id, from, to) };
    }
    return { kind: "calendar#freeBusy", timeMin: new Date(from).toISOString(), timeMax: new Date(to).toISOString(), calendars: answer };
  }

  /** Opaque, not cancelled events, clipped to the window and merged, as Google answers. */
  function busyOf(calendarId: string, from: number, to: number) {
    const ranges = [...calendarEvents(calendarId).values()]
      .filter((e) => e.status !== "cancelled" && e.transparency !== "transparent")
      .map((e) => [Math.max(from, Date.parse(e.start.dateTime)), Math.min(to, Date.parse(e.end.dateTime))] as const)
      .filter(([s, e]) => s < e)
      .sort((a, b) => a[0] - b[0]);
    const merged: [number, number][] = [];
    for (const [s, e] of ranges) {
      const last = merged.at(-1);
      if (last && s <= last[1]) last[1] = Math.max(last[1], e);
      else merged.push([s, e]);
    }
    return merged.map(([s, e]) => ({ start: new Date(s).toISOString(), end: new Date(e).toISOString() }));
  }

  /**
   * conferenceData as Google treats it: read only with conferenceDataVersion=1 (else ignored,
   * and the event keeps the conference it has); a createRequest for hangoutsMeet makes a Meet,
   * once per requestId (the same requestId again keeps the one made), answered with its video
   * entry point and hangoutLink.
   */
  function withConference(body: Record<string, unknown>, previous: FakeGoogleEvent | undefined, query: URLSearchParams): Record<string, unknown> {
    // The body's hangoutLink is read-only at Google: only the conference decides it.
    const { conferenceData: given, ...rest } = body as { conferenceData?: { createRequest?: { requestId?: string; conferenceSolutionKey?: { type?: string } } }; hangoutLink?: unknown };
    const before = previous?.conferenceData as { createRequest?: { requestId?: string } } | undefined;
    const kept = before ? { conferenceData: before, hangoutLink: previous!.hangoutLink } : {};
    const request = query.get("conferenceDataVersion") === "1" ? given?.createRequest : undefined;
    delete (rest as { hangoutLink?: unknown }).hangoutLink;
    if (!request || (before && before.createRequest?.requestId === request.requestId)) return { ...rest, ...kept };
    if (!request.requestId) throw apiError(400, "invalid", "Invalid conference create request: requestId is required.");
    if (request.conferenceSolutionKey?.type !== "hangoutsMeet") throw apiError(400, "invalid", "Invalid conference type value.");
    const letters = [...createHash("sha256").update(request.requestId).digest()].map((b) => String.fromCharCode(97 + (b % 26))).join("");
    const code = `${letters.slice(0, 3)}-${letters.slice(3, 7)}-${letters.slice(7, 10)}`;
    const uri = `https://meet.google.com/${code}`;
    meetingsMade += 1;
    return {
      ...rest,
      hangoutLink: uri,
      conferenceData: {
        createRequest: { ...request, status: { statusCode: "success" } },
        entryPoints: [
          { entryPointType: "video", uri, label: `meet.google.com/${code}` },
          { entryPointType: "more", uri: `https://tel.meet/${code}?pin=1234567890`, pin: "1234567890" },
        ],
        conferenceSolution: { key: { type: "hangoutsMeet" }, name: "Google Meet", iconUri: "https://fonts.gstatic.com/s/i/productlogos/meet_2020q4/v6/web-512dp/logo_meet_2020q4_color_2x_web_512dp.png" },
        conferenceId: code,
      },
    };
  }

  function calendarApi(req: IncomingMessage, segments: string[], query: URLSearchParams, body: string): unknown {
    const method = req.method ?? "GET";
    const json = () => (body ? (JSON.parse(body) as Record<string, unknown>) : {});
    if (method === "GET" && segments.join("/") === "users/me/calendarList") {
      authorizeApi(req, NEEDS.list);
      const offset = Number(query.get("pageToken") ?? 0);
      const size = Math.min(pageSize, Number(query.get("maxResults") ?? 100), 250);
      const items = calendars.slice(offset, offset + size).map((c) => ({ kind: "calendar#calendarListEntry", ...c, timeZone: "UTC" }));
      const next = offset + size < calendars.length ? { nextPageToken: String(offset + size) } : {};
      return { kind: "calendar#calendarList", items, ...next };
    }
    if (method === "POST" && segments.join("/") === "freeBusy") {
      authorizeApi(req, NEEDS.freeBusy);
      return freeBusy(json());
    }
    const [root, calendarId = "", resource, eventId, ...rest] = segments;
    if (root !== "calendars" || resource !== "events" || rest.length > 0) throw apiError(404, "notFound", "Not Found");
    const write = method !== "GET";
    authorizeApi(req, write ? NEEDS.write : NEEDS.read);
    calendarOf(calendarId, write);
    const events = calendarEvents(calendarId);
    if (eventId === undefined) {
      if (method === "GET") return listEvents(calendarId, query);
      if (method !== "POST") throw apiError(404, "notFound", "Not Found");
      const event = json();
      const id = typeof event.id === "string" ? event.id : randomBytes(13).toString("hex");
      if (!/^[a-v0-9]{5,1024}$/.test(id)) throw apiError(400, "invalid", "Invalid resource id value.");
      // A deleted event keeps its id: inserting it again is a conflict, as at Google.
      if (events.has(id)) throw apiError(409, "duplicate", "The requested identifier already exists.");
      return stored(calendarId, withConference(event, undefined, query), id);
    }
    const existing = events.get(eventId);
    if (!existing) throw apiError(404, "notFound", "Not Found");
    if (method === "GET") return existing;
    if (method === "PATCH") return stored(calendarId, withConference({ ...existing, ...json() }, existing, query), eventId);
    if (method === "PUT") return stored(calendarId, withConference({ status: "confirmed", ...json() }, existing, query), eventId);
    if (method === "DELETE") {
      if (existing.status === "cancelled") throw apiError(410, "deleted", "Resource has been deleted");
      cancel(calendarId, existing);
      return undefined;
    }
    throw apiError(405, "methodNotAllowed", "Method not allowed");
  }

  // ---- push (fake-push.ts) ----

  const hooks = new HookRoute();
  const push = googleChannels({
    apiBase: () => url,
    authorize(req, calendarId) {
      authorizeApi(req, NEEDS.read);
      if (calendarId !== undefined) calendarOf(calendarId, false);
    },
    fail: apiError,
    hooks,
  });

  // ---- the server ----

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    if (body === undefined) return res.writeHead(status, headers).end();
    if (typeof body === "string") return res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers }).end(body);
    res.writeHead(status, { "content-type": "application/json; charset=UTF-8", ...headers }).end(JSON.stringify(body));
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://fake");
    const body = await readBody(req);
    requests.push({ method: req.method ?? "GET", path: url.pathname, query: url.searchParams });
    if (req.method === "GET" && url.pathname === "/o/oauth2/v2/auth") return send(res, 302, undefined, { location: authorize(url.searchParams) });
    if (req.method === "POST" && url.pathname === "/token") {
      if (mode.kind === "fail" && mode.at === "token") throw oauthError(mode.status, mode.status >= 500 ? "internal_failure" : "invalid_request", `Fake failure ${mode.status}`);
      return send(res, 200, tokenEndpoint(req, body), { "cache-control": "no-store" });
    }
    if (req.method === "POST" && url.pathname === "/revoke") {
      if (mode.kind === "fail" && mode.at === "token") throw oauthError(mode.status, "internal_failure", `Fake failure ${mode.status}`);
      return send(res, 200, revokeEndpoint(url.searchParams.get("token") ?? new URLSearchParams(body).get("token") ?? ""));
    }
    if (!url.pathname.startsWith("/calendar/v3/")) throw new HttpError(404, "Not Found");
    if (mode.kind === "hang") return; // never answers; the client's timeout must give up
    if (mode.kind === "fail" && mode.at !== "token") throw apiError(mode.status, mode.status >= 500 ? "backendError" : "failed", `Fake failure ${mode.status}`);
    if (mode.kind === "rateLimit") {
      const status = mode.status ?? 429;
      return send(res, status, { error: { code: status, message: "Rate Limit Exceeded", errors: [{ domain: "usageLimits", reason: "rateLimitExceeded", message: "Rate Limit Exceeded" }] } }, { "retry-after": "7" });
    }
    const segments = url.pathname.slice("/calendar/v3/".length).split("/").map(decodeURIComponent);
    const pushed = push.handle(req, segments, body);
    if (pushed) return send(res, pushed.status, pushed.body);
    const answer = calendarApi(req, segments, url.searchParams, body);
    send(res, answer === undefined ? 204 : 200, answer);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof HttpError) send(res, error.status, error.body);
      else send(res, 500, { error: { code: 500, message: String(error), errors: [{ domain: "global", reason: "backendError" }] } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    env: {
      GOOGLE_CLIENT_ID: clientId,
      GOOGLE_CLIENT_SECRET: clientSecret,
      GOOGLE_AUTH_URL: `${url}/o/oauth2/v2/auth`,
      GOOGLE_TOKEN_URL: `${url}/token`,
      GOOGLE_REVOKE_URL: `${url}/revoke`,
      GOOGLE_API_BASE_URL: url,
    },
    clientId,
    clientSecret,
    email,
    calendars,
    meetingsMade: () => meetingsMade,
    async consent(authorizeUrl, consentOptions = {}) {
      denyNext = consentOptions.deny === true;
      const res = await fetch(authorizeUrl, { redirect: "manual" }).finally(() => (denyNext = false));
      const location = res.headers.get("location");
      if (res.status !== 302 || !location) throw new Error(`Google's consent page refused the request: ${res.status} ${await res.text()}`);
      return location;
    },
    addEvent(calendarId, event) {
      if (!calendars.some((c) => c.id === calendarId)) throw new Error(`fake Google has no calendar ${calendarId}`);
      const start = new Date(ms(event.start)).toISOString();
      const end = new Date(ms(event.end)).toISOString();
      const id = randomBytes(13).toString("hex");
      return stored(calendarId, { summary: "Busy", start: { dateTime: start }, end: { dateTime: end }, transparency: event.transparent ? "transparent" : "opaque" }, id);
    },
    events: (calendarId) => [...calendarEvents(calendarId).values()].filter((e) => e.status !== "cancelled"),
    changeEvent(calendarId, eventId, patch) {
      const existing = calendarEvents(calendarId).get(eventId);
      if (!existing) throw new Error(`fake Google has no event ${eventId}`);
      return stored(calendarId, { ...existing, ...patch }, eventId);
    },
    deleteEvent(calendarId, eventId) {
      const existing = calendarEvents(calendarId).get(eventId);
      if (!existing) throw new Error(`fake Google has no event ${eventId}`);
      cancel(calendarId, existing);
    },
    expireSyncTokens() {
      tokenGeneration += 1;
    },
    revokeGrant() {
      refreshTokens.clear();
      accessTokens.clear();
    },
    expireAccessTokens() {
      for (const access of accessTokens.values()) access.expiresAt = 0;
    },
    behave(next) {
      mode = next;
    },
    requests,
    push,
    routeHooks: (from, to) => hooks.set(from, to),
    revoked,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
}
