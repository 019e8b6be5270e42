import { readdirSync } from "node:fs";
import path from "node:path";
import type { RouteModule } from "@/app/api/v1/routes";
import type { HttpMethod, RouteHandler } from "@/lib/http/route";

// Calls the real route handlers in-process, routed the way Next.js routes app/: by the folders
// of each route.ts, a static segment before a [param], a [param] before a [...catchAll]. A
// module is imported when a request first reaches it, so a file that calls three routes does
// not load the calendar clients of thirty.

type Mounted = { pattern: RegExp; names: string[]; rank: string; file: string; catchAll?: string };

const appDir = path.resolve(import.meta.dirname, "../../app");

function mount(file: string): Mounted {
  const segments = path.dirname(path.relative(appDir, file)).split(path.sep);
  const names: string[] = [];
  let catchAll: string | undefined;
  let source = "";
  let rank = "";
  for (const segment of segments) {
    if (segment.startsWith("(")) continue; // a route group is not part of the path
    let m: RegExpExecArray | null;
    if ((m = /^\[\[\.\.\.(\w+)\]\]$/.exec(segment))) {
      catchAll = m[1];
      source += "(?:/(.*))?";
      rank += "3";
    } else if ((m = /^\[\.\.\.(\w+)\]$/.exec(segment))) {
      catchAll = m[1];
      source += "/(.+)";
      rank += "2";
    } else if ((m = /^\[(\w+)\]$/.exec(segment))) {
      names.push(m[1]!);
      source += "/([^/]+)";
      rank += "1";
    } else {
      source += `/${segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
      rank += "0";
    }
  }
  return { pattern: new RegExp(`^${source}$`), names, rank, file, catchAll };
}

const mounted: Mounted[] = readdirSync(appDir, { recursive: true, encoding: "utf8" })
  .filter((f) => path.basename(f) === "route.ts")
  .map((f) => mount(path.join(appDir, f)))
  // Next.js's order: at the first segment where two routes differ, the more specific wins.
  .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));

const modules = new Map<string, Promise<RouteModule>>();
function load(file: string): Promise<RouteModule> {
  let loaded = modules.get(file);
  if (!loaded) modules.set(file, (loaded = import(/* @vite-ignore */ file) as Promise<RouteModule>));
  return loaded;
}

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
    if (apiOnly && !url.pathname.startsWith("/api/v1")) break;
    handler = (await load(m.file))[method];
    params = Object.fromEntries(m.names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
    if (m.catchAll) params[m.catchAll] = (match[m.names.length + 1] ?? "").split("/").filter(Boolean);
    break;
  }
  if (!handler && (apiOnly || url.pathname.startsWith("/api/v1/"))) {
    // A path that climbed out of /api/v1 (`/..`) still ends at the API's catch-all, and so
    // does a method a route does not have.
    handler = (await load(path.join(appDir, "api/v1/[[...path]]/route.ts")))[method];
    params = { path: url.pathname.replace(/^\/api\/v1(\/|$)/, "").split("/").filter(Boolean) };
  }
  if (!handler) throw new Error(`No route at ${url.pathname} for ${method} (a page, or nothing, in the app)`);
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
