import * as catchAll from "@/app/api/v1/[[...path]]/route";
import * as openapi from "@/app/api/v1/openapi.json/route";
import { routeModules, siteRouteModules, type RouteModule } from "@/app/api/v1/routes";
import type { HttpMethod, RouteHandler } from "@/lib/http/route";

// Calls the real route handlers in-process, routed the way Next.js routes app/: a path template
// per module (its full path on the site), the /api/v1 catch-all for anything else below it.

type Mounted = { pattern: RegExp; names: string[]; module: RouteModule };

const mounted: Mounted[] = [...routeModules, openapi, ...siteRouteModules].map((module) => {
  const handler = [module.GET, module.POST, module.PUT, module.PATCH, module.DELETE].find((h) => h.mount);
  const template = handler!.mount!.path;
  const names: string[] = [];
  // As in Next.js, a parameter receives its whole segment: [token] mounted as "{token}.ics"
  // sees "abc.ics".
  const source = template
    .split("/")
    .map((segment) =>
      segment.replace(/[.]/g, "\\.").replace(/^\{(\w+)\}(.*)$/, (_, name: string, suffix: string) => {
        names.push(name);
        return `([^/]+${suffix})`;
      }),
    )
    .join("/");
  return { pattern: new RegExp(`^${source}$`), names, module };
});

export type ApiResponse<T = any> = { status: number; body: T; headers: Headers };

export type CallOptions = {
  token?: string;
  body?: unknown;
  /** Sent as is, instead of JSON.stringify(body). */
  rawBody?: string;
  headers?: Record<string, string>;
};

export const TEST_ORIGIN = "http://booking.test";

/** A request to any path of the site (`/api/calls/webhook`, `/health`, `/api/v1/me`). */
export function callSite<T = any>(method: HttpMethod, pathAndQuery: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  return dispatch<T>(method, pathAndQuery, options, false);
}

/** A request to the JSON API: `path` is below /api/v1. */
export function call<T = any>(method: HttpMethod, pathAndQuery: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  // A path that climbs out (`/..`) still ends at the API's catch-all, as it did before the
  // site's other routes were mounted here.
  return dispatch<T>(method, `/api/v1${pathAndQuery}`, options, true);
}

async function dispatch<T>(method: HttpMethod, pathAndQuery: string, options: CallOptions, apiOnly: boolean): Promise<ApiResponse<T>> {
  const url = new URL(`${TEST_ORIGIN}${pathAndQuery}`);
  const headers = new Headers(options.headers);
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  let body: string | undefined = options.rawBody;
  if (body === undefined && options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const req = new Request(url, { method, headers, body });

  let handler: RouteHandler | undefined;
  let params: Record<string, string | string[]> = {};
  for (const m of mounted) {
    const match = m.pattern.exec(url.pathname);
    if (!match) continue;
    handler = m.module[method];
    params = Object.fromEntries(m.names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
    break;
  }
  if (!handler && (apiOnly || url.pathname.startsWith("/api/v1/"))) {
    handler = catchAll[method];
    params = { path: url.pathname.replace(/^\/api\/v1(\/|$)/, "").split("/").filter(Boolean) };
  }
  if (!handler) throw new Error(`No route at ${url.pathname} (a page, or nothing, in the app)`);
  const res = await handler(req, { params: Promise.resolve(params) });
  const text = await res.text();
  const isJson = res.headers.get("content-type")?.includes("json") ?? false;
  return { status: res.status, headers: res.headers, body: text ? (isJson ? JSON.parse(text) : text) : undefined };
}

export const api = {
  get: <T = any>(path: string, o?: CallOptions) => call<T>("GET", path, o),
  post: <T = any>(path: string, body?: unknown, o?: CallOptions) => call<T>("POST", path, { ...o, body }),
  put: <T = any>(path: string, body?: unknown, o?: CallOptions) => call<T>("PUT", path, { ...o, body }),
  patch: <T = any>(path: string, body?: unknown, o?: CallOptions) => call<T>("PATCH", path, { ...o, body }),
  delete: <T = any>(path: string, o?: CallOptions) => call<T>("DELETE", path, o),
};

/** Requests to paths outside /api/v1 (the outbound-calling service, /health). */
export const site = {
  get: <T = any>(path: string, o?: CallOptions) => callSite<T>("GET", path, o),
  post: <T = any>(path: string, body?: unknown, o?: CallOptions) => callSite<T>("POST", path, { ...o, body }),
};
