import "server-only";
import type { AppError, ErrorCode } from "@/lib/errors";
import { rateLimitHeaders } from "@/lib/rate-limit";
import { errorStatus } from "./errors";

/** A JSON response; `undefined` body gives an empty one (204). */
export function json(body: unknown, init: { status?: number; headers?: HeadersInit } = {}): Response {
  const status = init.status ?? 200;
  if (body === undefined) return new Response(null, { status, headers: init.headers });
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json; charset=utf-8");
  return new Response(JSON.stringify(body), { status, headers });
}

/** A JSON response from an already serialised body. */
export function jsonText(body: string, init: { status?: number } = {}): Response {
  return new Response(body, { status: init.status ?? 200, headers: { "content-type": "application/json; charset=utf-8" } });
}

export function errorBody(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
  return { error: code, message, details };
}

/**
 * The error as HTTP: its status from the one table, the rate limit it was counted against as
 * X-RateLimit-* headers, and `details.retryAfterSeconds` as Retry-After.
 */
export function errorResponse(error: AppError, headers?: HeadersInit): Response {
  const merged = new Headers(headers);
  if (error.rateLimit) for (const [k, v] of Object.entries(rateLimitHeaders(error.rateLimit))) merged.set(k, v);
  const retryAfter = error.details.retryAfterSeconds;
  if (typeof retryAfter === "number") merged.set("retry-after", String(Math.max(1, Math.ceil(retryAfter))));
  return json(errorBody(error.code, error.message, error.details), {
    status: errorStatus[error.code],
    headers: merged,
  });
}
