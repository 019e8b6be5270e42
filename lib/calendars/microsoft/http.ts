import "server-only";
import { unansweredError } from "./failure";
import { settings } from "./settings";
import type { Answer } from "./wire";

// Plain REST: one request with the configured timeout, its answer read as JSON.

/** One request with the configured timeout; timeouts and network failures become "unavailable". */
export async function send(url: string, init: RequestInit, action: string): Promise<Answer> {
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
    throw unansweredError(e, action, timeoutMs);
  }
}

/** OData options keep their `$`: values are encoded, the names are Graph's own. */
export function query(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join("&");
}
