import * as catchAll from "@/app/api/v1/[[...path]]/route";
import * as openapi from "@/app/api/v1/openapi.json/route";
import { routeModules, type RouteModule } from "@/app/api/v1/routes";
import type { HttpMethod, RouteHandler } from "@/lib/http/route";

// Calls the real route handlers in-process, routed the way Next.js routes app/api/v1: a path
// template per module, the catch-all for anything else.

type Mounted = { pattern: RegExp; names: string[]; module: RouteModule };

const mounted: Mounted[] = [...routeModules, openapi].map((module) => {
  const handler = [module.GET, module.POST, module.PUT, module.PATCH, module.DELETE].find((h) => h.mount);
  const template = handler!.mount!.path;
  const names: string[] = [];
  const source = template.replace(/[.]/g, "\\.").replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name);
    return "([^/]+)";
  });
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

export async function call<T = any>(method: HttpMethod, pathAndQuery: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const url = new URL(`http://booking.test/api/v1${pathAndQuery}`);
  const relative = url.pathname.slice("/api/v1".length);
  const headers = new Headers(options.headers);
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  let body: string | undefined = options.rawBody;
  if (body === undefined && options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const req = new Request(url, { method, headers, body });

  let handler: RouteHandler = catchAll[method];
  let params: Record<string, string | string[]> = { path: relative.split("/").filter(Boolean) };
  for (const m of mounted) {
    const match = m.pattern.exec(relative);
    if (!match) continue;
    handler = m.module[method];
    params = Object.fromEntries(m.names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
    break;
  }
  const res = await handler(req, { params: Promise.resolve(params) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

export const api = {
  get: <T = any>(path: string, o?: CallOptions) => call<T>("GET", path, o),
  post: <T = any>(path: string, body?: unknown, o?: CallOptions) => call<T>("POST", path, { ...o, body }),
  put: <T = any>(path: string, body?: unknown, o?: CallOptions) => call<T>("PUT", path, { ...o, body }),
  patch: <T = any>(path: string, body?: unknown, o?: CallOptions) => call<T>("PATCH", path, { ...o, body }),
  delete: <T = any>(path: string, o?: CallOptions) => call<T>("DELETE", path, o),
};
