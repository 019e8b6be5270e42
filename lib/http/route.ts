import "server-only";
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { Db } from "@/db";
import { getDb, isDatabaseUnavailable, openedDb } from "@/lib/store/database";
import { hostOfSession } from "@/lib/services/accounts/sessions";
import type { UserRow } from "@/db/schema";
import { verifyAccessToken, type Bearer } from "@/lib/auth/jwt";
import { bearerOfSession, sessionCookieOf } from "@/lib/auth/session";
import { getConfig } from "@/lib/config";
import { log } from "@/lib/log";
import { observeRequest } from "@/lib/metrics";
import { getRateLimitStore, rateLimitHeaders, type RateLimitResult } from "@/lib/rate-limit";
import { clientIp } from "./client-ip";
import { AppError } from "@/lib/errors";
import { parseKept, parseWith, queryObject, readFormBody, readJsonBody } from "./parse";
import { errorResponse, json } from "./respond";
import { siteOrigin } from "@/lib/links";
import { scopesAllow } from "@/lib/schemas/api-key";
import { authenticateApiKey, looksLikeApiKey, type KeyPrincipal } from "@/lib/services/api-keys";
import { routeAccess } from "./scopes";

// The one wrapper every API handler goes through: request id, authentication, rate limit,
// input parsing, and the only try/catch. Handlers parse nothing and catch nothing.

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

type Schema = z.ZodType;
type Out<S> = S extends Schema ? z.output<S> : undefined;

/**
 * A success response: its JSON body's schema, and the other media types the same status may be
 * answered in (a query asks for one, as GET /me/bookings?format=csv does), each with an example.
 */
export type ResponseSpec = { description: string; schema?: Schema; otherMediaTypes?: Record<string, { example: string }> };

/** An error status a route may answer with, and optionally what it means on that route. */
export type ErrorSpec = number | { status: number; description: string };

/** Where the JSON API lives; endpoint() mounts a path below it unless told another prefix. */
export const API_PREFIX = "/api/v1";

export type RouteSpec<A extends "host" | "none", B, Q, P> = {
  auth: A;
  summary: string;
  tags?: string[];
  body?: B;
  query?: Q;
  params?: P;
  /** Extra request headers, documented in OpenAPI (e.g. Idempotency-Key). */
  headers?: { name: string; required: boolean; description: string }[];
  /** Success responses by status, for the OpenAPI document. */
  responses: Record<number, ResponseSpec>;
  /** Error statuses this route may answer with besides the wrapper's own, for the document. */
  errors?: ErrorSpec[];
  /**
   * A per-client-IP limit for public routes (the authenticated limit is per host); a function
   * when the rule is configured (read per request; undefined: that limit is off).
   */
  ipLimit?: IpLimit | (() => IpLimit | undefined);
  /**
   * Checked right after authentication, before any input is read: a route that cannot work at
   * all (its provider is not configured) says so whatever the request carries.
   */
  precondition?: () => void;
  /** The body's format: JSON (the default), or an HTML form as telephony providers post callbacks. */
  bodyFormat?: "json" | "form";
  /**
   * Checks who sent a form body before it is parsed (a provider's request signature): a forged
   * request is refused whatever its fields say. Form bodies only.
   */
  verify?: (request: { req: Request; url: URL; form: URLSearchParams }) => void;
};

export type RouteContext<A, B, Q, P> = {
  req: Request;
  url: URL;
  db: Db;
  requestId: string;
  host: A extends "host" ? UserRow : undefined;
  body: Out<B>;
  query: Out<Q>;
  params: Out<P>;
};

type NextContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = ((req: Request, ctx: NextContext) => Promise<Response>) & {
  spec?: RouteSpec<"host" | "none", unknown, unknown, unknown>;
  /** Set by endpoint(): where the handler is mounted (the full path), for the OpenAPI document. */
  mount?: { path: string; method: HttpMethod };
};

export type IpLimit = { name: string; limit: number; windowSeconds: number };

const HOST_LIMIT = { limit: 300, windowSeconds: 60 };
/** The name of the limit a request counts against first (per person, per key, or per address). */
const DEFAULT_POLICY = "default";
/** Public slot lists per client address: 60 a minute by default (LIMIT_SLOTS_PER_ADDRESS). */
export const PUBLIC_SLOTS_LIMIT = (): IpLimit | undefined => {
  const rule = getConfig().addressLimits.slots;
  return rule && { name: "slots", ...rule };
};
/** Calendar push notifications: per sending address, generous (a provider sends bursts from few addresses). */
export const CALENDAR_HOOKS_LIMIT = { name: "calendar-hooks", limit: 600, windowSeconds: 60 };

function requestIdOf(req: Request): string {
  const given = req.headers.get("x-request-id");
  return given && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
}

async function openDb(): Promise<Db> {
  try {
    return await getDb();
  } catch (error) {
    log.error({ err: error }, "database unavailable");
    throw new AppError("service_unavailable", "The database is unavailable; try again shortly");
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Who a request acts as: a person (an access token or the dashboard's session), or an API key of theirs. */
type Principal = { user: UserRow; key?: KeyPrincipal["key"] };

/**
 * The acting host: from a bearer credential (an access token, or an API key `bk_…`), else from
 * the dashboard's session cookie (model: dub's withWorkspace). A cookie rides along on any
 * request the browser sends, so a cookie-authenticated write must come from our own origin
 * (CSRF); a bearer credential cannot be attached by another site, so it needs no such check.
 */
async function authenticate(req: Request, db: Db): Promise<Principal> {
  const header = req.headers.get("authorization");
  let bearer: Bearer | null;
  if (header) {
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) throw new AppError("unauthorized", "A bearer token is required");
    if (looksLikeApiKey(match[1])) return authenticateApiKey(db, match[1]);
    bearer = await verifyAccessToken(match[1]);
  } else {
    const cookie = sessionCookieOf(req.headers.get("cookie"));
    if (!cookie) throw new AppError("unauthorized", "A bearer token is required");
    bearer = await bearerOfSession(cookie);
    if (bearer && !SAFE_METHODS.has(req.method) && req.headers.get("origin") !== siteOrigin()) {
      throw new AppError("forbidden", "Cross-site request refused: the Origin header must be this service's own");
    }
  }
  if (!bearer) throw new AppError("unauthorized", "The token is invalid or expired");
  // A token issued before the account's last sign-out everywhere (or password change) is over.
  const user = await hostOfSession(db, bearer);
  if (!user) throw new AppError("unauthorized", "The token is invalid or expired");
  return { user };
}

/**
 * A key may do what the route table (scopes.ts) says its scopes allow, and never what needs the
 * person: 403 naming the scope it lacks, so whoever set up the integration knows what to tick.
 */
function checkScope(key: NonNullable<Principal["key"]>, method: string, path: string | undefined): void {
  const access = routeAccess(method, path);
  if (access === "person") {
    throw new AppError("forbidden", "An API key cannot do this: it needs the person's own sign-in (keys, password, email, username, calendar credentials)", {
      requiredScope: null,
    });
  }
  if (!scopesAllow(key.scopes, access)) {
    throw new AppError("forbidden", `This API key lacks the ${access} scope`, { requiredScope: access });
  }
}

async function limit(key: string, rule: { limit: number; windowSeconds: number }, policy: string): Promise<RateLimitResult | undefined> {
  if (!getConfig().rateLimits) return undefined;
  const store = await getRateLimitStore();
  const result = { ...(await store.hit(key, rule.limit, rule.windowSeconds)), policy: { name: policy, windowSeconds: rule.windowSeconds } };
  if (!result.allowed) {
    throw new AppError(
      "rate_limited",
      `Too many requests: at most ${rule.limit} every ${rule.windowSeconds} seconds`,
      { retryAfterSeconds: Math.max(1, result.resetSeconds) },
      { rateLimit: result },
    );
  }
  return result;
}

/**
 * A route without a limit of its own (the public ones but slots and bookings, 404s, 405s) counts
 * against the client address's general one (LIMIT_API_PER_ADDRESS), so every answer says where
 * its client stands (RateLimit-Policy, RateLimit) and a scanner of paths is slowed down too.
 */
async function limitByAddress(req: Request): Promise<RateLimitResult | undefined> {
  const rule = getConfig().addressLimits.api;
  return rule ? limit(`api:ip:${clientIp(req)}`, rule, DEFAULT_POLICY) : undefined;
}

/** Logs one line per request, counts it (by route template) and stamps the request id on the response. */
function finish(req: Request, url: URL, requestId: string, started: number, response: Response, userId?: string, routeTemplate = "unmatched") {
  response.headers.set("x-request-id", requestId);
  const ms = performance.now() - started;
  // The line's object is built only when it is written (LOG_LEVEL=warn leaves it out).
  // The route's pattern, never its path: a path may carry a bearer secret (a guest's token in
  // /public/bookings/{token}.ics). Only a path that matched no route is logged as sent, cut short.
  if (log.isLevelEnabled("info")) {
    const where = routeTemplate === "unmatched" ? { route: routeTemplate, path: url.pathname.slice(0, 200) } : { route: routeTemplate };
    log.info({ requestId, method: req.method, ...where, status: response.status, durationMs: Math.round(ms * 10) / 10, userId }, "request");
  }
  observeRequest(req.method, routeTemplate, response.status, ms / 1000);
  return response;
}

export function unexpectedErrorResponse(error: unknown, requestId: string): Response {
  log.error({ requestId, err: error }, "unhandled error");
  return errorResponse(new AppError("internal_error", "Something went wrong on our side", { requestId }));
}

export function route<A extends "host" | "none", B extends Schema | undefined = undefined, Q extends Schema | undefined = undefined, P extends Schema | undefined = undefined>(
  spec: RouteSpec<A, B, Q, P>,
  handler: (ctx: RouteContext<A, B, Q, P>) => Promise<Response>,
): RouteHandler {
  const wrapped: RouteHandler = async (req, nextCtx) => {
    const started = performance.now();
    const url = new URL(req.url);
    const requestId = requestIdOf(req);
    let limitHeaders: Record<string, string> = {};
    let host: UserRow | undefined;
    let response: Response;
    try {
      // Once open, the database is taken as it is: no turn through the microtask queue.
      const db = openedDb() ?? (await openDb());
      const ipLimit = typeof spec.ipLimit === "function" ? spec.ipLimit() : spec.ipLimit;
      if (spec.auth === "host") {
        const principal = await authenticate(req, db);
        host = principal.user;
        const keyRule = getConfig().apiKeyLimit;
        const result = principal.key
          ? keyRule && (await limit(`key:${principal.key.id}`, keyRule, DEFAULT_POLICY))
          : await limit(`host:${host.id}`, HOST_LIMIT, DEFAULT_POLICY);
        if (result) limitHeaders = rateLimitHeaders(result);
        if (principal.key) checkScope(principal.key, req.method, wrapped.mount?.path);
      } else if (!spec.ipLimit) {
        // A route with a limit of its own keeps to it (and none when it is set off).
        const result = await limitByAddress(req);
        if (result) limitHeaders = rateLimitHeaders(result);
      }
      if (ipLimit && getConfig().rateLimits) {
        const result = await limit(`${ipLimit.name}:ip:${clientIp(req)}`, ipLimit, ipLimit.name);
        if (result) limitHeaders = rateLimitHeaders(result);
      }
      spec.precondition?.();
      const rawParams = nextCtx?.params ? await nextCtx.params : {};
      // A read's path and query are parsed once per distinct value (parseKept): a page asks the same again and again.
      const read = req.method === "GET" || req.method === "HEAD";
      const params = spec.params
        ? read
          ? parseKept(spec.params, JSON.stringify(rawParams), () => rawParams, "path")
          : parseWith(spec.params, rawParams, "path")
        : undefined;
      const query = spec.query
        ? read
          ? parseKept(spec.query, url.search, () => queryObject(url), "query")
          : parseWith(spec.query, queryObject(url), "query")
        : undefined;
      let body: unknown;
      if (spec.bodyFormat === "form") {
        const form = await readFormBody(req);
        spec.verify?.({ req, url, form });
        // Fields as an object (the last value wins for a repeated name), like query strings.
        body = spec.body ? parseWith(spec.body, Object.fromEntries(form), "form body") : undefined;
      } else if (spec.body) {
        body = parseWith(spec.body, await readJsonBody(req), "request body");
      }
      response = await handler({
        req,
        url,
        db,
        requestId,
        host: host as RouteContext<A, B, Q, P>["host"],
        body: body as Out<B>,
        query: query as Out<Q>,
        params: params as Out<P>,
      });
    } catch (error) {
      if (error instanceof AppError) response = errorResponse(error);
      else if (isDatabaseUnavailable(error)) {
        // Not a bug but an outage: a 503 the client may retry; the pool reconnects by itself.
        log.warn({ requestId, err: error }, "database unavailable");
        response = errorResponse(new AppError("service_unavailable", "The database is unavailable; try again shortly"));
      } else response = unexpectedErrorResponse(error, requestId);
    }
    for (const [k, v] of Object.entries(limitHeaders)) if (!response.headers.has(k)) response.headers.set(k, v);
    return finish(req, url, requestId, started, response, host?.id, wrapped.mount?.path);
  };
  wrapped.spec = spec as RouteSpec<"host" | "none", unknown, unknown, unknown>;
  return wrapped;
}

export type EndpointHandlers = Record<HttpMethod, RouteHandler> & { path: string };

/**
 * All five methods for one path: the given ones, and a JSON 405 with an `Allow` header for the
 * rest (Next.js would answer an empty 405). Export them all from the route file:
 * `export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me", { GET: route(…) })`.
 * The path is below /api/v1; a route elsewhere on the site gives its own prefix ("" for the root).
 */
export function endpoint(
  relativePath: string,
  handlers: Partial<Record<HttpMethod, RouteHandler>>,
  options: { prefix?: string } = {},
): EndpointHandlers {
  const path = `${options.prefix ?? API_PREFIX}${relativePath}`;
  const allowed = HTTP_METHODS.filter((m) => handlers[m]);
  const notAllowed: RouteHandler = async (req) => {
    const started = performance.now();
    const url = new URL(req.url);
    const response = await answerByAddress(req, () =>
      errorResponse(new AppError("method_not_allowed", `${req.method} is not allowed here; use ${allowed.join(", ")}`, { allow: allowed }), {
        allow: allowed.join(", "),
      }),
    );
    return finish(req, url, requestIdOf(req), started, response, undefined, path);
  };
  const out = { path } as EndpointHandlers;
  for (const method of HTTP_METHODS) {
    const handler = handlers[method];
    if (handler) handler.mount = { path, method };
    out[method] = handler ?? notAllowed;
  }
  return out;
}

/** Responds 404 for every method: the catch-all under /api/v1. */
export async function notFoundResponse(req: Request): Promise<Response> {
  const started = performance.now();
  const url = new URL(req.url);
  const response = await answerByAddress(req, () => errorResponse(new AppError("not_found", `No API route at ${url.pathname}`)));
  return finish(req, url, requestIdOf(req), started, response);
}

/** An answer of no route (404, 405), counted against the client address's general limit and carrying its headers. */
async function answerByAddress(req: Request, answer: () => Response): Promise<Response> {
  let result: RateLimitResult | undefined;
  try {
    result = await limitByAddress(req);
  } catch (error) {
    if (error instanceof AppError) return errorResponse(error);
    // The limit's store being down must not turn a 404 into a 500.
    log.warn({ err: error }, "rate limit store unavailable");
  }
  const response = answer();
  if (result) for (const [k, v] of Object.entries(rateLimitHeaders(result))) response.headers.set(k, v);
  return response;
}

export { json };
