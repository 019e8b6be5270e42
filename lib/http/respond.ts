import { AppError, type ErrorCode, errorStatus } from "./errors";

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

export function errorResponse(error: AppError, headers?: HeadersInit): Response {
  const merged = new Headers(headers);
  for (const [k, v] of Object.entries(error.headers)) merged.set(k, v);
  return json(errorBody(error.code, error.message, error.details), {
    status: errorStatus[error.code],
    headers: merged,
  });
}
