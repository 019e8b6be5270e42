import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DateTime } from "luxon";
import { graphSubscriptions, HookRoute } from "./fake-push";

/**
 * A local stand-in for the Microsoft identity platform (OAuth 2.0 v2 endpoints under
 * `{url}/common`) and Microsoft Graph (`{url}/v1.0`), speaking their wire formats: an authorize
 * endpoint that checks the request and redirects with a code, a token endpoint with PKCE, client
 * secrets, refresh and AADSTS errors, and the calendar resources the app uses, with Graph's
 * error bodies, bearer checks, `@odata.nextLink` paging and `transactionId` de-duplication, and
 * `calendarView/delta`: pages (`Prefer: odata.maxpagesize`) through `$skiptoken` nextLinks to a
 * `$deltatoken` deltaLink, which later answers only what changed (deleted events as `@removed`);
 * a delta token the fake has forgotten (`expireDeltaTokens`) is `410 syncStateNotFound`.
 *
 * One mailbox: an account, its calendars (the default one writable, a read-only holidays one
 * and a read-only birthdays one) and their events. Pages hold `pageSize` items (2 unless told)
 * and access tokens live `accessTokenLifetimeS` (90 s unless told), so paging and refreshing
 * happen in every test. Tests choose how Graph (or the token endpoint) behaves next and read
 * what it was sent.
 */

export type FakeCalendar = { id: string; name: string; isDefaultCalendar: boolean; canEdit: boolean };
type GraphDateTime = { dateTime: string; timeZone: string };
export type FakeEvent = {
  id: string;
  transactionId?: string;
  subject: string;
  body: { contentType: string; content: string };
  start: GraphDateTime;
  end: GraphDateTime;
  isAllDay: boolean;
  isCancelled: boolean;
  showAs: string;
  location: { displayName: string };
  attendees: { emailAddress: { address: string; name?: string }; type: string }[];
  /** An online meeting asked for (isOnlineMeeting: true): Graph makes it and answers its joinUrl. */
  isOnlineMeeting?: boolean;
  onlineMeetingProvider?: string;
  onlineMeeting?: { joinUrl: string; conferenceId: string; tollNumber: string } | null;
};
export type FakeRequest = { method: string; path: string; query: URLSearchParams; headers: IncomingHttpHeaders; body: string };
export type FakeMode = { kind: "ok" } | { kind: "fail"; status: number } | { kind: "rateLimit" } | { kind: "hang" };

export type FakeMicrosoft = {
  url: string;
  /** Points the app at this server. */
  env: Record<string, string>;
  clientId: string;
  clientSecret: string;
  /** The address the app should report for the account (`mail`, else `userPrincipalName`). */
  email: string;
  /** The mailbox's calendars, live: tests may add some. */
  calendars: FakeCalendar[];
  requests: FakeRequest[];
  /** The browser's part: GETs the authorize URL and returns where it redirects (`{redirect_uri}?code=…&state=…`); throws when it refuses. */
  consent(authorizeUrl: string): Promise<string>;
  /** Adds an event; all-day events take the UTC date of `start` and `end`. */
  addEvent(calendarId: string, event: { start: Date | number | string; end: Date | number | string; showAs?: string; isAllDay?: boolean; isCancelled?: boolean; subject?: string }): FakeEvent;
  events(calendarId: string): FakeEvent[];
  /** Another client changes an event (e.g. `{ showAs: "free" }`, or moves it with `start`/`end` as epoch ms). */
  changeEvent(eventId: string, change: { start?: number; end?: number; showAs?: string; subject?: string }): FakeEvent;
  /** Another client deletes an event. */
  deleteEvent(eventId: string): void;
  /** Every delta token issued so far is forgotten: a deltaLink answers 410 from now on. */
  expireDeltaTokens(): void;
  /** The person removes the app's access: every refresh token stops working (access tokens live on until they expire, as at Microsoft). */
  revokeGrant(): void;
  /** Every access token issued so far is refused from now on. */
  expireAccessTokens(): void;
  /** What the next requests to Graph (or with `target` "token", to the token endpoint) get. */
  behave(mode: FakeMode, target?: "graph" | "token"): void;
  /** Subscriptions (create after the validation handshake, PATCH, DELETE) and their notifications (fake-push.ts). */
  push: ReturnType<typeof graphSubscriptions>;
  /** Delivers handshakes and notifications for addresses under `from` (https) to `to` (the app over plain HTTP). */
  routeHooks(from: string, to: string): void;
  /** Teams meetings made so far (isOnlineMeeting honoured). */
  meetingsMade(): number;
  close(): Promise<void>;
};

const SCOPES_KNOWN = new Set(["offline_access", "openid", "profile", "email", "User.Read", "Calendars.Read", "Calendars.ReadWrite"]);
const graphDateTime = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}.0000000`;
const outlookId = () => `AAMkAG${randomBytes(30).toString("base64url")}AAA=`;
const opaqueToken = (prefix: string) => `${prefix}${randomBytes(32).toString("base64url")}`;

class GraphFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(body === undefined ? undefined : JSON.stringify(body));
}

/** A Graph dateTime in a named zone (UTC or IANA) as epoch ms. */
function readDateTime(value: unknown, field: string): number {
  const v = value as Partial<GraphDateTime> | undefined;
  if (typeof v?.dateTime !== "string" || typeof v.timeZone !== "string") throw new GraphFailure(400, "ErrorInvalidRequest", `${field} needs dateTime and timeZone`);
  const at = DateTime.fromISO(v.dateTime, { zone: v.timeZone });
  if (!at.isValid) throw new GraphFailure(400, "TimeZoneNotSupportedException", `A valid TimeZone value must be specified. The following TimeZone value is not supported: '${v.timeZone}'.`);
  return at.toMillis();
}

export async function startFakeMicrosoft(options: { pageSize?: number; accessTokenLifetimeS?: number; mail?: string | null } = {}): Promise<FakeMicrosoft> {
  const pageSize = options.pageSize ?? 2;
  const lifetimeS = options.accessTokenLifetimeS ?? 90;
  const clientId = randomBytes(16).toString("hex").replace(/^(.{8})(.{4})(.{4})(.{4})/, "$1-$2-$3-$4-");
  const clientSecret = randomBytes(24).toString("base64url");
  const userPrincipalName = `host-${randomBytes(4).toString("hex")}@contoso.example`;
  const mail = options.mail === undefined ? userPrincipalName : options.mail;
  const calendars: FakeCalendar[] = [
    { id: outlookId(), name: "Calendar", isDefaultCalendar: true, canEdit: true },
    { id: outlookId(), name: "United States holidays", isDefaultCalendar: false, canEdit: false },
    { id: outlookId(), name: "Birthdays", isDefaultCalendar: false, canEdit: false },
  ];
  const eventsOf = new Map<string, FakeEvent[]>();
  const codes = new Map<string, { redirectUri: string; scopes: string[]; challenge: string; expiresAt: number; used: boolean }>();
  const refreshTokens = new Map<string, string[]>(); // → granted scopes
  const accessTokens = new Map<string, { scopes: string[]; expiresAt: number }>();
  const requests: FakeRequest[] = [];
  let graphMode: FakeMode = { kind: "ok" };
  /** Every write to an event takes the next number; a delta token names the number it was issued at. */
  let sequence = 0;
  const changedAt = new Map<string, number>(); // event id → sequence
  const removedAt = new Map<string, { calendarId: string; at: number }>();
  let tokenGeneration = 0;
  const touch = (id: string) => changedAt.set(id, ++sequence);
  let tokenMode: FakeMode = { kind: "ok" };
  let meetingsMade = 0;

  function calendarOf(id: string): FakeCalendar {
    const calendar = calendars.find((c) => c.id === id);
    if (!calendar) throw new GraphFailure(404, "ErrorItemNotFound", "The specified object was not found in the store.");
    return calendar;
  }
  function listOf(calendarId: string): FakeEvent[] {
    calendarOf(calendarId);
    let list = eventsOf.get(calendarId);
    if (!list) eventsOf.set(calendarId, (list = []));
    return list;
  }
  function findEvent(id: string): { event: FakeEvent; list: FakeEvent[] } {
    for (const list of eventsOf.values()) {
      const event = list.find((e) => e.id === id);
      if (event) return { event, list };
    }
    throw new GraphFailure(404, "ErrorItemNotFound", "The specified object was not found in the store.");
  }
  /** Where an event lies as Graph matches it: all-day events as UTC days, as Exchange stores them. */
  const span = (e: FakeEvent) => ({ start: Date.parse(`${e.start.dateTime}Z`), end: Date.parse(`${e.end.dateTime}Z`) });

  function issueTokens(scopes: string[]) {
    const accessToken = opaqueToken("EwB");
    accessTokens.set(accessToken, { scopes, expiresAt: Date.now() + lifetimeS * 1000 });
    const answer: Record<string, unknown> = {
      token_type: "Bearer",
      scope: scopes.filter((s) => s !== "offline_access").join(" "),
      expires_in: lifetimeS,
      ext_expires_in: lifetimeS,
      access_token: accessToken,
    };
    // As at Microsoft: a refresh token only with offline_access, and a new one on every refresh.
    if (scopes.includes("offline_access")) {
      const refreshToken = opaqueToken("M.C5");
      refreshTokens.set(refreshToken, scopes);
      answer.refresh_token = refreshToken;
    }
    return answer;
  }

  function authorize(query: URLSearchParams, res: ServerResponse) {
    const page = (status: number, message: string) => {
      res.writeHead(status, { "content-type": "text/html" });
      res.end(`<html><body>Sorry, but we're having trouble signing you in. ${message}</body></html>`);
    };
    if (query.get("client_id") !== clientId) return page(400, "AADSTS700016: Application with identifier was not found in the directory.");
    const redirectUri = query.get("redirect_uri") ?? "";
    if (!/^https?:\/\/[^/]/.test(redirectUri)) return page(400, "AADSTS50011: The redirect URI specified in the request does not match the redirect URIs configured for the application.");
    const back = new URL(redirectUri);
    const state = query.get("state");
    const fail = (error: string, description: string) => {
      back.searchParams.set("error", error);
      back.searchParams.set("error_description", description);
      if (state) back.searchParams.set("state", state);
      res.writeHead(302, { location: back.href }).end();
    };
    const scopes = (query.get("scope") ?? "").split(" ").filter(Boolean);
    if (query.get("response_type") !== "code") return fail("unsupported_response_type", "AADSTS700054: response_type 'code' is required.");
    if ((query.get("response_mode") ?? "query") !== "query") return fail("invalid_request", "AADSTS900144: response_mode must be query here.");
    if (scopes.length === 0 || scopes.some((s) => !SCOPES_KNOWN.has(s))) return fail("invalid_scope", "AADSTS70011: The provided value for the input parameter 'scope' is not valid.");
    if (!state) return fail("invalid_request", "AADSTS900144: The request body must contain the following parameter: 'state'.");
    const challenge = query.get("code_challenge") ?? "";
    if (!/^[\w-]{43,128}$/.test(challenge) || query.get("code_challenge_method") !== "S256") {
      return fail("invalid_request", "AADSTS501491: Invalid size of Code_Challenge parameter, or code_challenge_method is not S256.");
    }
    const code = opaqueToken("M.C5_BAY.2.U.");
    codes.set(code, { redirectUri, scopes, challenge, expiresAt: Date.now() + 10 * 60_000, used: false });
    back.searchParams.set("code", code);
    back.searchParams.set("state", state);
    res.writeHead(302, { location: back.href }).end();
  }

  function token(req: IncomingMessage, body: string, res: ServerResponse) {
    const error = (status: number, code: string, description: string) =>
      send(res, status, { error: code, error_description: `${description}\r\nTrace ID: ${randomBytes(8).toString("hex")}`, error_codes: [Number(/AADSTS(\d+)/.exec(description)?.[1])] });
    if (!(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) {
      return error(400, "invalid_request", "AADSTS900144: The request body must contain the following parameter: 'grant_type'.");
    }
    const form = new URLSearchParams(body);
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? "")?.[1];
    const [basicId, basicSecret] = basic ? Buffer.from(basic, "base64").toString("utf8").split(":") : [];
    if ((form.get("client_id") ?? basicId) !== clientId) return error(400, "unauthorized_client", "AADSTS700016: Application with identifier was not found in the directory.");
    if ((form.get("client_secret") ?? basicSecret) !== clientSecret) return error(401, "invalid_client", "AADSTS7000215: Invalid client secret provided.");
    const grantType = form.get("grant_type");
    if (grantType === "authorization_code") {
      const grant = codes.get(form.get("code") ?? "");
      if (!grant) return error(400, "invalid_grant", "AADSTS70000: The provided authorization code is malformed or invalid.");
      if (grant.used) return error(400, "invalid_grant", "AADSTS54005: OAuth2 Authorization code was already redeemed.");
      if (grant.expiresAt < Date.now()) return error(400, "invalid_grant", "AADSTS70008: The provided authorization code has expired.");
      if (form.get("redirect_uri") !== grant.redirectUri) return error(400, "invalid_grant", "AADSTS70000: The redirect_uri does not match the one of the authorization request.");
      const verifier = form.get("code_verifier") ?? "";
      if (createHash("sha256").update(verifier).digest("base64url") !== grant.challenge) {
        return error(400, "invalid_grant", "AADSTS501481: The Code_Verifier does not match the code_challenge supplied in the authorization request.");
      }
      grant.used = true;
      return send(res, 200, issueTokens(grant.scopes));
    }
    if (grantType === "refresh_token") {
      const scopes = refreshTokens.get(form.get("refresh_token") ?? "");
      if (!scopes) return error(400, "invalid_grant", "AADSTS70000: The provided grant has been revoked or is invalid. The user must sign in again.");
      return send(res, 200, issueTokens(scopes));
    }
    return error(400, "unsupported_grant_type", "AADSTS70003: The app requested an unsupported grant type.");
  }

  /** A page of `items` from `$skip`, with a nextLink that keeps the other options. */
  function paged<T>(items: T[], url: URL) {
    const top = Math.min(Number(url.searchParams.get("$top") ?? 10) || 10, pageSize);
    const skip = Number(url.searchParams.get("$skip") ?? 0) || 0;
    const value = items.slice(skip, skip + top);
    if (skip + top >= items.length) return { value };
    const next = new URL(url);
    next.searchParams.set("$skip", String(skip + top));
    return { value, "@odata.nextLink": next.href };
  }
  function select<T extends object>(item: T, url: URL): Partial<T> {
    const fields = url.searchParams.get("$select")?.split(",");
    if (!fields) return item;
    return Object.fromEntries(Object.entries(item).filter(([k]) => k === "id" || fields.includes(k))) as Partial<T>;
  }

  function writeEvent(target: FakeEvent, input: Record<string, unknown>) {
    if (input.subject !== undefined) target.subject = String(input.subject);
    if (input.body !== undefined) target.body = input.body as FakeEvent["body"];
    if (input.location !== undefined) target.location = { displayName: String((input.location as { displayName?: unknown }).displayName ?? "") };
    if (input.showAs !== undefined) target.showAs = String(input.showAs);
    if (input.attendees !== undefined) {
      if (!Array.isArray(input.attendees)) throw new GraphFailure(400, "ErrorInvalidRequest", "attendees must be a collection");
      target.attendees = input.attendees.map((a: { emailAddress?: { address?: unknown; name?: unknown }; type?: unknown }) => {
        if (typeof a.emailAddress?.address !== "string" || !["required", "optional", "resource"].includes(String(a.type))) {
          throw new GraphFailure(400, "ErrorInvalidRequest", "Each attendee needs emailAddress.address and a type of required, optional or resource.");
        }
        return { emailAddress: { address: a.emailAddress.address, name: typeof a.emailAddress.name === "string" ? a.emailAddress.name : undefined }, type: String(a.type) };
      });
    }
    const start = input.start === undefined ? span(target).start : readDateTime(input.start, "start");
    const end = input.end === undefined ? span(target).end : readDateTime(input.end, "end");
    if (!(start < end)) throw new GraphFailure(400, "ErrorInvalidParameter", "The end of the event must be after its start.");
    target.start = { dateTime: graphDateTime(start), timeZone: "UTC" };
    target.end = { dateTime: graphDateTime(end), timeZone: "UTC" };
  }

  function remove(event: FakeEvent, list: FakeEvent[]) {
    const calendarId = [...eventsOf.entries()].find(([, l]) => l === list)![0];
    list.splice(list.indexOf(event), 1);
    removedAt.set(event.id, { calendarId, at: ++sequence });
  }

  type DeltaState = { calendarId: string; from: number; to: number; at: number; since: number; offset: number; generation: number };
  const encode = (value: DeltaState) => Buffer.from(JSON.stringify(value)).toString("base64url");
  function decode(value: string): DeltaState | undefined {
    try {
      return JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as DeltaState;
    } catch {
      return undefined;
    }
  }

  /** calendarView/delta: the first round lists the window; a deltaLink lists what changed since. */
  function delta(calendarId: string, url: URL, req: IncomingMessage, res: ServerResponse) {
    listOf(calendarId);
    const skip = url.searchParams.get("$skiptoken");
    const deltaToken = url.searchParams.get("$deltatoken");
    let state: DeltaState;
    if (skip || deltaToken) {
      const decoded = decode(skip ?? deltaToken!);
      if (!decoded || decoded.calendarId !== calendarId) throw new GraphFailure(400, "ErrorInvalidUrlQuery", "The delta or skip token is not valid.");
      if (decoded.generation !== tokenGeneration) throw new GraphFailure(410, "syncStateNotFound", "The sync state generation is not found.");
      state = skip ? decoded : { ...decoded, since: decoded.at, at: sequence, offset: 0 };
    } else {
      const from = Date.parse(url.searchParams.get("startDateTime") ?? "");
      const to = Date.parse(url.searchParams.get("endDateTime") ?? "");
      if (Number.isNaN(from) || Number.isNaN(to)) {
        throw new GraphFailure(400, "ErrorInvalidParameter", "This request requires a time window specified by the query string parameters StartDateTime and EndDateTime.");
      }
      if (url.searchParams.has("$select") || url.searchParams.has("$filter")) throw new GraphFailure(400, "ErrorInvalidUrlQuery", "delta does not support $select or $filter.");
      state = { calendarId, from, to, at: sequence, since: -1, offset: 0, generation: tokenGeneration };
    }
    const inWindow = (e: FakeEvent) => span(e).start < state.to && span(e).end > state.from;
    const items: Record<string, unknown>[] = [];
    for (const e of listOf(calendarId)) {
      const seq = changedAt.get(e.id) ?? 0;
      if (seq > state.at || seq <= state.since) continue;
      if (inWindow(e)) items.push({ "@odata.type": "#microsoft.graph.event", ...e });
      else if (state.since >= 0) items.push({ "@odata.type": "#microsoft.graph.event", id: e.id, "@removed": { reason: "deleted" } });
    }
    if (state.since >= 0) {
      for (const [id, gone] of removedAt) {
        if (gone.calendarId === calendarId && gone.at > state.since && gone.at <= state.at) items.push({ "@odata.type": "#microsoft.graph.event", id, "@removed": { reason: "deleted" } });
      }
    }
    const prefer = String(req.headers.prefer ?? "");
    const asked = Number(/odata\.maxpagesize=(\d+)/.exec(prefer)?.[1] ?? pageSize);
    const size = Math.max(1, Math.min(asked, pageSize));
    const value = items.slice(state.offset, state.offset + size);
    const link = new URL(`${base}/v1.0/me/calendars/${encodeURIComponent(calendarId)}/calendarView/delta`);
    if (state.offset + size < items.length) link.searchParams.set("$skiptoken", encode({ ...state, offset: state.offset + size }));
    else link.searchParams.set("$deltatoken", encode({ ...state, offset: 0 }));
    const applied = [/outlook\.timezone="UTC"/.test(prefer) ? 'outlook.timezone="UTC"' : "", /odata\.maxpagesize/.test(prefer) ? `odata.maxpagesize=${size}` : ""].filter(Boolean).join(", ");
    return send(
      res,
      200,
      { "@odata.context": `${base}/v1.0/$metadata#Collection(event)`, value, [link.searchParams.has("$skiptoken") ? "@odata.nextLink" : "@odata.deltaLink"]: link.href },
      applied ? { "preference-applied": applied } : {},
    );
  }

  /**
   * isOnlineMeeting: true makes a meeting of the provider asked for (teamsForBusiness; Graph
   * refuses one the mailbox does not offer), once per event: a later PATCH keeps it.
   */
  function withOnlineMeeting(event: FakeEvent, input: Record<string, unknown>) {
    if (input.isOnlineMeeting !== true || event.onlineMeeting) return;
    const provider = input.onlineMeetingProvider ?? "teamsForBusiness";
    if (provider !== "teamsForBusiness") throw new GraphFailure(400, "ErrorInvalidRequest", `The online meeting provider ${String(provider)} is not allowed for this mailbox.`);
    const thread = randomBytes(16).toString("hex");
    meetingsMade += 1;
    event.isOnlineMeeting = true;
    event.onlineMeetingProvider = "teamsForBusiness";
    event.onlineMeeting = {
      joinUrl: `https://teams.microsoft.com/l/meetup-join/19%3ameeting_${thread}%40thread.v2/0?context=%7b%22Tid%22%3a%2272f988bf-86f1-41af-91ab-2d7cd011db47%22%7d`,
      conferenceId: String(100_000_000 + (parseInt(thread.slice(0, 8), 16) % 900_000_000)),
      tollNumber: "+1 555-0100",
    };
  }

  function graph(method: string, url: URL, req: IncomingMessage, body: string, res: ServerResponse) {
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
    const access = accessTokens.get(bearer);
    if (!access || access.expiresAt <= Date.now()) {
      throw new GraphFailure(401, "InvalidAuthenticationToken", access ? "Lifetime validation failed, the token is expired." : "IDX14100: JWT is not well formed.");
    }
    const can = (scope: string) => {
      if (!access.scopes.includes(scope) && !(scope === "Calendars.Read" && access.scopes.includes("Calendars.ReadWrite"))) {
        throw new GraphFailure(403, "ErrorAccessDenied", "Access is denied. Check credentials and try again.");
      }
    };
    const parts = url.pathname.slice("/v1.0/".length).split("/").map(decodeURIComponent);
    const json = () => {
      try {
        return JSON.parse(body) as Record<string, unknown>;
      } catch {
        throw new GraphFailure(400, "UnableToDeserializePostBody", "were unable to deserialize");
      }
    };
    // me/{collection}/{id}/{collection}…: the ids sit at the even places after `me`.
    if (method === "GET" && parts.length === 5 && parts[0] === "me" && parts[1] === "calendars" && parts[3] === "calendarView" && parts[4] === "delta") {
      can("Calendars.Read");
      return delta(parts[2]!, url, req, res);
    }
    const route = `${method} ${parts.map((p, i) => (i >= 2 && i % 2 === 0 ? "{id}" : p)).join("/")}`;
    switch (route) {
      case "GET me":
        can("User.Read");
        return send(res, 200, select({ id: "87d349ed-44d7-43e1-9a83-5f2406dee5bd", displayName: "Host", mail, userPrincipalName }, url));
      case "GET me/calendars":
        can("Calendars.Read");
        return send(res, 200, paged(calendars.map((c) => select(c, url)), url));
      case "GET me/calendars/{id}/calendarView": {
        can("Calendars.Read");
        const from = Date.parse(url.searchParams.get("startDateTime") ?? "");
        const to = Date.parse(url.searchParams.get("endDateTime") ?? "");
        if (Number.isNaN(from) || Number.isNaN(to)) {
          throw new GraphFailure(400, "ErrorInvalidParameter", "This request requires a time window specified by the query string parameters StartDateTime and EndDateTime.");
        }
        const within = listOf(parts[2]!).filter((e) => span(e).start < to && span(e).end > from).sort((a, b) => span(a).start - span(b).start);
        const preferUtc = /outlook\.timezone="UTC"/.test(String(req.headers.prefer ?? ""));
        return send(res, 200, paged(within.map((e) => select(e, url)), url), preferUtc ? { "preference-applied": 'outlook.timezone="UTC"' } : {});
      }
      case "POST me/calendars/{id}/events": {
        can("Calendars.ReadWrite");
        const calendar = calendarOf(parts[2]!);
        if (!calendar.canEdit) throw new GraphFailure(403, "ErrorAccessDenied", "Access is denied. Check credentials and try again.");
        const input = json();
        const transactionId = typeof input.transactionId === "string" ? input.transactionId : undefined;
        // A retried create: Graph answers with the event the first attempt made, as it is now.
        const existing = transactionId && [...eventsOf.values()].flat().find((e) => e.transactionId === transactionId);
        if (existing) return send(res, 201, existing);
        if (input.start === undefined || input.end === undefined) throw new GraphFailure(400, "ErrorInvalidRequest", "An event needs a start and an end.");
        const event: FakeEvent = {
          id: outlookId(),
          ...(transactionId ? { transactionId } : {}),
          subject: "",
          body: { contentType: "text", content: "" },
          start: { dateTime: "", timeZone: "UTC" },
          end: { dateTime: "", timeZone: "UTC" },
          isAllDay: false,
          isCancelled: false,
          showAs: "busy",
          location: { displayName: "" },
          attendees: [],
        };
        writeEvent(event, input);
        withOnlineMeeting(event, input);
        listOf(calendar.id).push(event);
        touch(event.id);
        return send(res, 201, event);
      }
      case "GET me/events/{id}":
        can("Calendars.Read");
        return send(res, 200, select(findEvent(parts[2]!).event, url));
      case "PATCH me/events/{id}": {
        can("Calendars.ReadWrite");
        const { event } = findEvent(parts[2]!);
        const input = json();
        if (input.transactionId !== undefined && input.transactionId !== event.transactionId) {
          throw new GraphFailure(400, "ErrorInvalidProperty", "The transactionId of an event cannot be changed.");
        }
        const draft = structuredClone(event);
        writeEvent(draft, input); // all or nothing, as at Graph
        withOnlineMeeting(draft, input);
        Object.assign(event, draft);
        touch(event.id);
        return send(res, 200, event);
      }
      case "DELETE me/events/{id}": {
        can("Calendars.ReadWrite");
        const { event, list } = findEvent(parts[2]!);
        remove(event, list);
        res.writeHead(204).end();
        return;
      }
      default:
        throw new GraphFailure(400, "BadRequest", `Resource not found for the segment '${parts.at(-1)}'.`);
    }
  }

  // ---- push (fake-push.ts) ----

  const hooks = new HookRoute();
  const push = graphSubscriptions({
    authorize(req) {
      const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
      const access = accessTokens.get(bearer);
      if (!access || access.expiresAt <= Date.now()) throw new GraphFailure(401, "InvalidAuthenticationToken", "Lifetime validation failed, the token is expired.");
      if (!access.scopes.includes("Calendars.Read") && !access.scopes.includes("Calendars.ReadWrite")) throw new GraphFailure(403, "ExtensionError", "Operation: Create; Exception: [Status Code: Forbidden; Reason: Access is denied.]");
    },
    fail: (status, code, message) => new GraphFailure(status, code, message),
    calendarExists: (id) => calendars.some((c) => c.id === id),
    userId: "87d349ed-44d7-43e1-9a83-5f2406dee5bd",
    hooks,
  });

  /** Answers as the mode says; false when the request is to be served normally. */
  function misbehave(mode: FakeMode, res: ServerResponse, tokenEndpoint: boolean): boolean {
    if (mode.kind === "ok") return false;
    if (mode.kind === "hang") return true; // never answers; the client's timeout must give up
    const status = mode.kind === "rateLimit" ? 429 : mode.status;
    const headers: Record<string, string> = mode.kind === "rateLimit" ? { "retry-after": "7" } : {};
    if (tokenEndpoint) send(res, status, { error: status === 429 ? "temporarily_unavailable" : "server_error", error_description: `AADSTS90033: A transient error has occurred (${status}).` }, headers);
    else send(res, status, { error: { code: status === 429 ? "TooManyRequests" : "generalException", message: `The service answered ${status}.` } }, headers);
    return true;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", base);
    const body = await readBody(req);
    const method = req.method ?? "GET";
    requests.push({ method, path: url.pathname, query: url.searchParams, headers: req.headers, body });
    if (method === "GET" && url.pathname === "/common/oauth2/v2.0/authorize") return authorize(url.searchParams, res);
    if (method === "POST" && url.pathname === "/common/oauth2/v2.0/token") {
      if (misbehave(tokenMode, res, true)) return;
      return token(req, body, res);
    }
    if (!url.pathname.startsWith("/v1.0/")) return send(res, 404, { error: { code: "NotFound", message: "No such endpoint" } });
    if (misbehave(graphMode, res, false)) return;
    try {
      const pushed = await push.handle(method, url.pathname.slice("/v1.0/".length).split("/").map(decodeURIComponent), req, body);
      if (pushed) return pushed.body === undefined ? void res.writeHead(pushed.status).end() : send(res, pushed.status, pushed.body);
      graph(method, url, req, body, res);
    } catch (e) {
      if (!(e instanceof GraphFailure)) throw e;
      const headers: Record<string, string> = e.status === 401 ? { "www-authenticate": 'Bearer realm="", error="invalid_token"' } : {};
      send(res, e.status, { error: { code: e.code, message: e.message, innerError: { date: new Date().toISOString(), "request-id": randomBytes(8).toString("hex") } } }, headers);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { error: { code: "generalException", message: String(error) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    env: {
      MICROSOFT_CLIENT_ID: clientId,
      MICROSOFT_CLIENT_SECRET: clientSecret,
      MICROSOFT_LOGIN_BASE_URL: `${base}/common`,
      MICROSOFT_GRAPH_BASE_URL: `${base}/v1.0`,
    },
    clientId,
    clientSecret,
    email: mail ?? userPrincipalName,
    calendars,
    requests,
    meetingsMade: () => meetingsMade,
    async consent(authorizeUrl) {
      const res = await fetch(authorizeUrl, { redirect: "manual" });
      const location = res.headers.get("location");
      if (res.status !== 302 || !location) throw new Error(`The fake Microsoft refused the authorize request (${res.status}): ${await res.text()}`);
      const error = new URL(location).searchParams.get("error_description");
      if (error) throw new Error(`The fake Microsoft refused the authorize request: ${error}`);
      return location;
    },
    addEvent(calendarId, input) {
      const ms = (v: Date | number | string) => (v instanceof Date ? v.getTime() : typeof v === "number" ? v : Date.parse(v));
      const at = (v: Date | number | string) =>
        input.isAllDay ? `${new Date(ms(v)).toISOString().slice(0, 10)}T00:00:00.0000000` : graphDateTime(ms(v));
      const event: FakeEvent = {
        id: outlookId(),
        subject: input.subject ?? "Busy",
        body: { contentType: "text", content: "" },
        start: { dateTime: at(input.start), timeZone: "UTC" },
        end: { dateTime: at(input.end), timeZone: "UTC" },
        isAllDay: input.isAllDay ?? false,
        isCancelled: input.isCancelled ?? false,
        showAs: input.showAs ?? "busy",
        location: { displayName: "" },
        attendees: [],
      };
      listOf(calendarId).push(event);
      touch(event.id);
      return event;
    },
    events: (calendarId) => [...listOf(calendarId)],
    changeEvent(eventId, change) {
      const { event } = findEvent(eventId);
      if (change.start !== undefined) event.start = { dateTime: graphDateTime(change.start), timeZone: "UTC" };
      if (change.end !== undefined) event.end = { dateTime: graphDateTime(change.end), timeZone: "UTC" };
      if (change.showAs !== undefined) event.showAs = change.showAs;
      if (change.subject !== undefined) event.subject = change.subject;
      touch(event.id);
      return event;
    },
    deleteEvent(eventId) {
      const { event, list } = findEvent(eventId);
      remove(event, list);
    },
    expireDeltaTokens() {
      tokenGeneration += 1;
    },
    revokeGrant: () => refreshTokens.clear(),
    expireAccessTokens() {
      for (const access of accessTokens.values()) access.expiresAt = 0;
    },
    behave(mode, target = "graph") {
      if (target === "token") tokenMode = mode;
      else graphMode = mode;
    },
    push,
    routeHooks: (from, to) => hooks.set(from, to),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
}
