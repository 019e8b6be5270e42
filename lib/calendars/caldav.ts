import "server-only";
import { createHash } from "node:crypto";
import { calendarMultiGet, calendarQuery, createAccount, deleteObject, propfind, syncCollection, updateObject, type DAVAccount, type DAVResponse } from "tsdav";
import { fetch as undiciFetch, type Dispatcher } from "undici";
import { getConfig } from "@/lib/config";
import { log } from "@/lib/log";
import { guardedDispatcher } from "@/lib/net/guarded-dispatcher";
import { AddressRefusedError } from "@/lib/net/outbound";
import { ServerAddressRefused, caldavAddressGuard } from "./caldav-address";
import { busyOfIcs, eventIcs, isZone } from "./caldav-ics";
import {
  CalendarError,
  type BusyRange,
  type CalDavCredentials,
  type CalendarChanges,
  type CalendarClient,
  type ChangesRange,
  type CalendarEvent,
  type ExternalCalendar,
  deleteIgnoringGone,
} from "./types";
import { calendarError, withAction } from "./errors";

// provider_c: Apple iCloud (or any CalDAV server) through tsdav, with a Basic-auth login and an
// app-specific password. tsdav does the WebDAV/XML work; every request goes through `davFetch`,
// which adds the login, enforces the timeout and turns HTTP failures into CalendarError.
// A server the host named (not the operator's CALDAV_SERVER_URL) is reached only through the
// outbound address policy (lib/net), at every connection and every redirect (decisions §17).

type Fetch = typeof fetch;
/** One public call's state: after an auth, outage or rate-limit failure, its other requests fail at once. */
type Session = { failure?: CalendarError };

const DAY_MS = 86_400_000;

/** A CalDAV answer of 400 or more, as CalendarError (its message names the request, not the action). */
async function statusFailure(response: Response, method: string, url: string): Promise<CalendarError> {
  const { status } = response;
  const body = await response.text().catch(() => "");
  // CalDAV answers 403 with a DAV:error body for refused content (RFC 4791 preconditions such
  // as no-uid-conflict); only a bare 403 means the login lost its access.
  const precondition = status === 403 ? /<(?:[\w-]+:)?error\b[^>]*>\s*<(?:[\w-]+:)?([\w-]+)/i.exec(body)?.[1] : undefined;
  return calendarError("caldav", undefined, { type: "api", status, retryAfter: response.headers.get("retry-after"), request: { method, url }, precondition });
}

/** A request that got no answer, or one tsdav could not read, as CalendarError. */
function transportFailure(error: unknown, timeoutMs: number): CalendarError {
  if (error instanceof CalendarError) return error;
  const e = error as { name?: string; message?: string; cause?: { code?: string; name?: string } };
  if (e?.name === "TimeoutError" || e?.name === "AbortError" || e?.cause?.name === "TimeoutError") {
    return calendarError("caldav", undefined, { type: "no_answer", timedOut: true, timeoutMs });
  }
  if (e?.cause instanceof AddressRefusedError) return calendarError("caldav", undefined, { type: "address_refused", hostname: e.cause.hostname });
  if (e?.name === "TypeError" && e.message === "fetch failed") {
    return calendarError("caldav", undefined, { type: "no_answer", timedOut: false, code: e.cause?.code ?? e.cause?.name ?? "network error", timeoutMs });
  }
  // tsdav's own complaints (a missing principal, an unparsable answer).
  return calendarError("caldav", undefined, { type: "unreadable", message: String(e?.message ?? error) });
}

/** fetch for tsdav: the login, a timeout per request, and failures as CalendarError. */
function davFetch(credentials: CalDavCredentials, timeoutMs: number, session: Session, dispatcher: Dispatcher | undefined): Fetch {
  const authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}`;
  return async (input, init) => {
    if (session.failure) throw session.failure;
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? "GET";
    const headers = new Headers(init?.headers);
    headers.set("authorization", authorization);
    let failure: CalendarError;
    try {
      // The signal also covers reading the body, which tsdav does after this returns.
      const signal = AbortSignal.timeout(timeoutMs);
      const response = dispatcher
        ? ((await undiciFetch(url, { ...(init as Parameters<typeof undiciFetch>[1]), headers, signal, dispatcher })) as unknown as Response)
        : await fetch(input, { ...init, headers, signal });
      if (response.status < 400) return response;
      failure = await statusFailure(response, method, url);
    } catch (error) {
      failure = transportFailure(error, timeoutMs);
    }
    // tsdav tries several discovery URLs and swallows their errors; a refused login or a dead
    // server must not be retried URL after URL, each waiting for the timeout.
    // 501 is a REPORT the server does not implement (sync-collection), not an outage.
    if (failure.kind === "auth" || (failure.kind === "unavailable" && failure.status !== 501) || failure.kind === "rate_limited" || failure instanceof ServerAddressRefused) {
      session.failure = failure;
    }
    throw failure;
  };
}

const withSlash = (url: string) => (url.endsWith("/") ? url : `${url}/`);
const asArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** The object's file name: readable, and collision-free through a hash of the whole uid. */
export function eventFileName(uid: string): string {
  const readable = uid.replace(/[^A-Za-z0-9_-]+/g, "-").slice(0, 64);
  const hash = createHash("sha256").update(uid).digest("hex").slice(0, 16);
  return `${readable}-${hash}.ics`;
}

/** `20250101T000000Z`, as a CalDAV time-range wants it. */
const davTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}/, "").replace(/[-:]/g, "");

/**
 * Where a calendar's incremental read goes on from: the RFC 6578 sync-token, or, on a server
 * without sync-collection, the ETag of every object (a PROPFIND then shows what changed).
 */
export type CalDavSyncState = { mode: "sync"; token: string } | { mode: "etag"; etags: Record<string, string> };

export function readSyncState(state: string | null): CalDavSyncState | undefined {
  if (!state) return undefined;
  try {
    const parsed = JSON.parse(state) as Partial<CalDavSyncState>;
    if (parsed.mode === "sync" && typeof parsed.token === "string") return { mode: "sync", token: parsed.token };
    if (parsed.mode === "etag" && parsed.etags && typeof parsed.etags === "object") return { mode: "etag", etags: parsed.etags };
  } catch {
    // unreadable: a full read starts over
  }
  return undefined;
}

/** What differs between two ETag listings: objects new or changed, and objects gone. */
export function etagDiff(before: Record<string, string>, now: Record<string, string>): { changed: string[]; removed: string[] } {
  return {
    changed: Object.keys(now).filter((href) => before[href] !== now[href]),
    removed: Object.keys(before).filter((href) => !(href in now)),
  };
}

/** A sync-collection token the server no longer accepts (RFC 6578 §3.2: the valid-sync-token precondition). */
function isSpentToken(error: unknown): boolean {
  return error instanceof CalendarError && error.kind === "rejected" && (error.status === 403 || error.status === 409 || error.status === 400 || /valid-sync-token/.test(error.message));
}

/** A server that has no sync-collection REPORT: it answers with one of these. */
function lacksSyncCollection(error: unknown): boolean {
  return error instanceof CalendarError && (error.status === 501 || error.status === 405 || (error.kind === "rejected" && [400, 403, 409, 415].includes(error.status ?? 0)));
}

const calendarData = (r: DAVResponse): unknown => r.props?.calendarData?._cdata ?? r.props?.calendarData;

type Privileges = { privilege?: Record<string, unknown> | Record<string, unknown>[] } | undefined;

/** A calendar is writable unless its privilege set is given and grants no write. */
function canWrite(privileges: Privileges): boolean {
  if (!privileges || typeof privileges !== "object") return true;
  const granted = asArray(privileges.privilege).flatMap((p) => Object.keys(p ?? {}));
  return granted.length === 0 || granted.some((p) => ["all", "write", "writeContent", "bind"].includes(p));
}

function calendarName(displayName: unknown, url: string): string {
  const raw = typeof displayName === "object" && displayName !== null ? (displayName as { _cdata?: unknown })._cdata : displayName;
  // tsdav turns numeric-looking text into numbers ("2024" → 2024).
  const name = ["string", "number", "boolean"].includes(typeof raw) ? String(raw).trim() : "";
  if (name) return name;
  const segment = new URL(url).pathname.split("/").filter(Boolean).pop() ?? url;
  return decodeURIComponent(segment);
}

export function caldavClient(credentials: CalDavCredentials, options: { timeoutMs?: number } = {}): CalendarClient {
  const timeoutMs = options.timeoutMs ?? getConfig().calendarTimeoutMs;
  const guard = caldavAddressGuard(credentials.serverUrl);
  const dispatcher = guard ? guardedDispatcher(guard, { connectTimeoutMs: timeoutMs }) : undefined;
  let server: URL | undefined;
  try {
    server = new URL(credentials.serverUrl);
  } catch {
    server = undefined;
  }
  let account: Promise<DAVAccount> | undefined;

  /** Runs one public call with its own session; every failure leaves as CalendarError. */
  async function call<T>(action: string, work: (fetch: Fetch) => Promise<T>): Promise<T> {
    if (!server || !/^https?:$/.test(server.protocol) || server.username || server.password) {
      throw new CalendarError("rejected", `${action}: the CalDAV server address must be an http(s) URL without a login in it`);
    }
    const session: Session = {};
    try {
      return await work(davFetch(credentials, timeoutMs, session, dispatcher));
    } catch (error) {
      throw withAction(action, transportFailure(session.failure ?? error, timeoutMs));
    }
  }

  /** Discovery (/.well-known/caldav, principal, calendar home), done once per client. */
  function discover(fetch: Fetch): Promise<DAVAccount> {
    account ??= createAccount({ account: { serverUrl: credentials.serverUrl, accountType: "caldav" }, fetch }).catch((error: unknown) => {
      account = undefined;
      if (error instanceof CalendarError && ((error.kind !== "not_found" && error.kind !== "rejected") || error instanceof ServerAddressRefused)) throw error;
      throw new CalendarError("rejected", `No CalDAV calendar home found at ${server?.origin}`, error instanceof CalendarError ? error.status : undefined);
    });
    return account;
  }

  /** Resolves an object URL against its calendar; it must stay on that server, since the login goes with it. */
  function objectUrl(calendarId: string, eventId: string): string {
    const url = new URL(eventId, withSlash(calendarId));
    if (url.origin !== new URL(calendarId).origin) throw new CalendarError("rejected", "The event is not on the calendar's server");
    return url.href;
  }

  /** An object's href as a full URL: the event key, and the form a booking's own event id has. */
  const keyOf = (calendarId: string, href: string) => new URL(href, withSlash(calendarId)).href;
  const isObject = (calendarId: string, href: string | undefined) => !!href && keyOf(calendarId, href) !== withSlash(calendarId) && keyOf(calendarId, href) !== calendarId;

  function expand(calendarId: string, r: DAVResponse, range: ChangesRange): BusyRange[] {
    const data = calendarData(r);
    if (typeof data !== "string" || !data.includes("BEGIN:VCALENDAR")) return [];
    try {
      return busyOfIcs(data, range);
    } catch (error) {
      // One broken object (another client's bug) must not hide the rest of the calendar.
      log.warn({ err: error, calendar: calendarId, object: r.href }, "caldav: unreadable calendar object skipped");
      return [];
    }
  }

  /** The span's objects with their data (a calendar-query with a time range). */
  async function query(fetch: Fetch, calendarId: string, range: ChangesRange): Promise<DAVResponse[]> {
    // Floating and all-day events are compared by the server in a zone of its choosing:
    // ask a day wider on each side and cut exactly here.
    const filters = {
      "comp-filter": {
        _attributes: { name: "VCALENDAR" },
        "comp-filter": {
          _attributes: { name: "VEVENT" },
          "time-range": { _attributes: { start: davTime(range.from - DAY_MS), end: davTime(range.to + DAY_MS) } },
        },
      },
    };
    return calendarQuery({ url: calendarId, depth: "1", props: { "d:getetag": {}, "c:calendar-data": {} }, filters, fetch });
  }

  /** The changed objects' data, one calendar-multiget; objects gone meanwhile go to `removed`. */
  async function fetchChanged(fetch: Fetch, calendarId: string, hrefs: string[], range: ChangesRange, changes: CalendarChanges): Promise<void> {
    if (hrefs.length === 0) return;
    const answers = await calendarMultiGet({
      url: calendarId,
      props: { "d:getetag": {}, "c:calendar-data": {} },
      objectUrls: hrefs.map((href) => new URL(keyOf(calendarId, href)).pathname),
      depth: "1",
      fetch,
    });
    const seen = new Set<string>();
    for (const r of answers) {
      if (!isObject(calendarId, r.href)) continue;
      const key = keyOf(calendarId, r.href!);
      seen.add(key);
      if (r.status === 404) changes.removed.push(key);
      else changes.upserts.set(key, expand(calendarId, r, range));
    }
    for (const href of hrefs) if (!seen.has(keyOf(calendarId, href))) changes.removed.push(keyOf(calendarId, href));
  }

  /** Every object's ETag (a Depth 1 PROPFIND), by event key. */
  async function etags(fetch: Fetch, calendarId: string): Promise<Record<string, string>> {
    const answers = await propfind({ url: calendarId, depth: "1", props: { "d:getetag": {} }, fetch });
    const out: Record<string, string> = {};
    for (const r of answers) if (r.ok && isObject(calendarId, r.href) && r.props?.getetag != null) out[keyOf(calendarId, r.href!)] = String(r.props.getetag);
    return out;
  }

  /** One sync-collection REPORT: what changed since `token` (all members without one) and the new token. */
  async function report(fetch: Fetch, calendarId: string, token: string | undefined) {
    const answers = await syncCollection({ url: calendarId, props: { "d:getetag": {} }, syncLevel: 1, syncToken: token ?? "", fetch });
    const raw = answers[0]?.raw as { multistatus?: { syncToken?: unknown } } | undefined;
    const next = raw?.multistatus?.syncToken;
    if (next === undefined || next === null || next === "") throw new CalendarError("rejected", "the server's sync-collection answer named no sync-token");
    const changed: string[] = [];
    const removed: string[] = [];
    for (const r of answers) {
      if (!isObject(calendarId, r.href)) continue;
      (r.status === 404 ? removed : changed).push(keyOf(calendarId, r.href!));
    }
    return { token: String(next), changed, removed };
  }

  /** The span read whole, with the state the next incremental read goes on from. */
  async function fullRead(fetch: Fetch, calendarId: string, range: ChangesRange): Promise<CalendarChanges> {
    // The token is taken before the data: a change between the two is read again next time.
    let state: CalDavSyncState;
    try {
      state = { mode: "sync", token: (await report(fetch, calendarId, undefined)).token };
    } catch (error) {
      if (!lacksSyncCollection(error)) throw error;
      state = { mode: "etag", etags: await etags(fetch, calendarId) };
    }
    const changes: CalendarChanges = { full: true, upserts: new Map(), removed: [], state: JSON.stringify(state) };
    for (const r of await query(fetch, calendarId, range)) {
      if (r.ok && isObject(calendarId, r.href)) changes.upserts.set(keyOf(calendarId, r.href!), expand(calendarId, r, range));
    }
    return changes;
  }

  async function put(fetch: Fetch, url: string, event: CalendarEvent): Promise<void> {
    // No If-Match / If-None-Match: writing the same booking again replaces it (idempotent).
    await updateObject({ url, data: eventIcs(event), headers: { "content-type": "text/calendar; charset=utf-8" }, fetch });
  }

  return {
    listCalendars: () =>
      call("Listing CalDAV calendars", async (fetch) => {
        const { homeUrl } = await discover(fetch);
        if (!homeUrl) throw new CalendarError("rejected", "the server named no calendar home");
        const responses = await propfind({
          url: homeUrl,
          depth: "1",
          props: {
            "d:displayname": {},
            "d:resourcetype": {},
            "d:current-user-privilege-set": {},
            "c:supported-calendar-component-set": {},
          },
          fetch,
        });
        const calendars: ExternalCalendar[] = [];
        for (const r of responses) {
          if (!r.ok || !r.href || !Object.keys(r.props?.resourcetype ?? {}).includes("calendar")) continue;
          // No component set means every component (RFC 4791 §5.2.3); iCloud's Reminders lists say VTODO only.
          const components = asArray<{ _attributes?: { name?: string } }>(r.props?.supportedCalendarComponentSet?.comp).map((c) => c?._attributes?.name);
          if (components.length > 0 && !components.includes("VEVENT")) continue;
          const url = new URL(r.href, withSlash(homeUrl)).href;
          calendars.push({
            externalId: url,
            name: calendarName(r.props?.displayname, url),
            // iCloud has no primary flag: the first event calendar (usually "Home"/"Calendar") stands in.
            isPrimary: calendars.length === 0,
            writable: canWrite(r.props?.currentUserPrivilegeSet as Privileges),
          });
        }
        return calendars;
      }),

    busy: (calendarIds, range) =>
      call("Reading CalDAV busy times", async (fetch) => {
        if (!isZone(range.timeZone)) throw new CalendarError("rejected", `unknown time zone ${range.timeZone}`);
        const result = new Map<string, BusyRange[]>();
        if (range.from >= range.to) return result;
        // Floating and all-day events are compared by the server in a zone of its choosing:
        // ask a day wider on each side and cut exactly here.
        const filters = {
          "comp-filter": {
            _attributes: { name: "VCALENDAR" },
            "comp-filter": {
              _attributes: { name: "VEVENT" },
              "time-range": { _attributes: { start: davTime(range.from - DAY_MS), end: davTime(range.to + DAY_MS) } },
            },
          },
        };
        const answers = await Promise.all(
          calendarIds.map(async (id) => {
            try {
              return [id, await calendarQuery({ url: id, depth: "1", props: { "d:getetag": {}, "c:calendar-data": {} }, filters, fetch })] as const;
            } catch (error) {
              // A calendar deleted since it was listed has no answer: leave it out of the map.
              if (error instanceof CalendarError && error.kind === "not_found") return undefined;
              throw error;
            }
          }),
        );
        for (const answer of answers) {
          if (!answer) continue;
          const [id, responses] = answer;
          const ranges: BusyRange[] = [];
          for (const r of responses) {
            const data: unknown = r.props?.calendarData?._cdata ?? r.props?.calendarData;
            if (typeof data !== "string" || !data.includes("BEGIN:VCALENDAR")) continue;
            try {
              ranges.push(...busyOfIcs(data, range));
            } catch (error) {
              // One broken object (another client's bug) must not hide the rest of the calendar.
              log.warn({ err: error, calendar: id, object: r.href }, "caldav: unreadable calendar object skipped");
            }
          }
          result.set(id, ranges.sort((a, b) => a.start - b.start || a.end - b.end));
        }
        return result;
      }),

    changes: (calendarId, { state, ...range }) =>
      call("Reading CalDAV changes", async (fetch) => {
        if (!isZone(range.timeZone)) throw new CalendarError("rejected", `unknown time zone ${range.timeZone}`);
        const known = readSyncState(state);
        if (known?.mode === "sync") {
          let delta: Awaited<ReturnType<typeof report>>;
          try {
            delta = await report(fetch, calendarId, known.token);
          } catch (error) {
            // The token is spent (the server forgot it, or the collection was replaced): start over.
            if (isSpentToken(error)) return fullRead(fetch, calendarId, range);
            throw error;
          }
          const changes: CalendarChanges = { full: false, upserts: new Map(), removed: [...delta.removed], state: JSON.stringify({ mode: "sync", token: delta.token }) };
          await fetchChanged(fetch, calendarId, delta.changed, range, changes);
          return changes;
        }
        if (known?.mode === "etag") {
          const now = await etags(fetch, calendarId);
          const diff = etagDiff(known.etags, now);
          const changes: CalendarChanges = { full: false, upserts: new Map(), removed: diff.removed, state: JSON.stringify({ mode: "etag", etags: now }) };
          await fetchChanged(fetch, calendarId, diff.changed, range, changes);
          return changes;
        }
        return fullRead(fetch, calendarId, range);
      }),

    createEvent: (calendarId, event) =>
      call("Writing a CalDAV event", async (fetch) => {
        const url = objectUrl(calendarId, eventFileName(event.uid));
        await put(fetch, url, event);
        return { eventId: url };
      }),

    updateEvent: (calendarId, eventId, event) =>
      call("Updating a CalDAV event", async (fetch) => {
        await put(fetch, objectUrl(calendarId, eventId), event);
      }),

    deleteEvent: (calendarId, eventId) =>
      call("Deleting a CalDAV event", (fetch) => deleteIgnoringGone(() => deleteObject({ url: objectUrl(calendarId, eventId), fetch }))),
  };
}

/**
 * Logs in and lists the calendars, before a connection is stored: CalendarError("auth") for a
 * wrong login, "unavailable" when the server cannot be reached.
 */
export async function verifyCalDavCredentials(credentials: CalDavCredentials, options: { timeoutMs?: number } = {}): Promise<ExternalCalendar[]> {
  return caldavClient(credentials, options).listCalendars();
}
