// The pages' one door to /api/v1: every failure (offline, a proxy's HTML error page, a JSON
// error body) becomes one ApiError with a human message, so no page ever shows a raw error.

export type ApiIssue = { path: string; message: string };

export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when the service could not be reached. */
    readonly status: number,
    /** The API's error code (`validation_error`, `slot_unavailable` …), or `network_error` / `bad_response`. */
    readonly code: string,
    /** Human text, fit to show as it is. */
    message: string,
    readonly issues: ApiIssue[] = [],
    /** How long to wait before trying again (Retry-After, or the body's details), when known. */
    readonly retryAfterSeconds?: number,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** The message of the issue at `path`, for showing it at its field. */
  issueAt(path: string): string | undefined {
    return this.issues.find((i) => i.path === path)?.message;
  }
}

/** Whatever a call threw, as an ApiError: something unexpected (a bug of ours) gets plain words too. */
export function toApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError(0, "client_error", "Something went wrong on this page. Please try again.");
}

export const API_BASE = "/api/v1";

export type FetchJsonOptions = {
  method?: string;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Where /api/v1 lives: the page's own origin unless given (tests, server-side callers). */
  baseUrl?: string;
  /** This very request, already sent (the booking page's inline prefetch): its answer is read instead. */
  prefetched?: Promise<Response>;
};

export function fallbackMessage(status: number): string {
  if (status === 401) return "Your session has ended. Please log in again.";
  if (status === 403) return "You are not allowed to do this.";
  if (status === 404) return "This no longer exists.";
  if (status === 429) return "Too many requests. Please wait a moment and try again.";
  if (status === 502 || status === 503 || status === 504) return "The service is unavailable right now. Please try again in a moment.";
  if (status >= 500) return "Something went wrong on our side. Please try again in a moment.";
  return "The request could not be completed. Please try again.";
}

export function networkMessage(): string {
  const offline = typeof navigator !== "undefined" && navigator.onLine === false;
  return offline
    ? "You seem to be offline. Check your internet connection and try again."
    : "We could not reach the service. Check your internet connection and try again.";
}

/** "about 3 minutes": how long a person should wait, rounded the way one would say it. */
export function waitPhrase(seconds: number): string {
  if (seconds < 60) {
    const s = Math.max(1, Math.ceil(seconds));
    return `${s} second${s === 1 ? "" : "s"}`;
  }
  if (seconds < 3600) {
    const m = Math.ceil(seconds / 60);
    return `about ${m} minute${m === 1 ? "" : "s"}`;
  }
  const h = Math.round(seconds / 3600);
  return `about ${h} hour${h === 1 ? "" : "s"}`;
}

/** Retry-After as seconds: either a number of seconds or an HTTP date (RFC 9110 §10.2.3). */
function retryAfterOf(res: Response, details: Record<string, unknown>): number | undefined {
  const header = res.headers.get("retry-after")?.trim();
  if (header) {
    if (/^\d+$/.test(header)) return Number(header);
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - Date.now()) / 1000));
  }
  const fromBody = details.retryAfterSeconds;
  return typeof fromBody === "number" && Number.isFinite(fromBody) && fromBody >= 0 ? Math.ceil(fromBody) : undefined;
}

function isIssue(value: unknown): value is ApiIssue {
  return typeof value === "object" && value !== null && typeof (value as ApiIssue).path === "string" && typeof (value as ApiIssue).message === "string";
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Joins the server's sentence and ours, whether or not the first ends with a full stop. */
const sentences = (first: string, second: string) => `${/[.!?]$/.test(first) ? first : `${first}.`} ${second}`;

type ErrorBody = { error: string; message: string; details?: unknown };

/** The API's own error shape, `{error, message, details}`: only its words are trusted for people. */
function ownErrorBody(text: string): ErrorBody | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isRecord(body) && typeof body.error === "string" && typeof body.message === "string" && body.message !== "" ? (body as ErrorBody) : undefined;
}

/** The ApiError for a non-2xx answer whose body was `text`. */
export function errorOf(res: Response, text: string): ApiError {
  // A proxy's HTML page or JSON is not written for people: it gets our message instead.
  const own = ownErrorBody(text);
  const details = own && isRecord(own.details) ? own.details : {};
  const issues = Array.isArray(details.issues) ? details.issues.filter(isIssue) : [];
  const retryAfter = retryAfterOf(res, details);
  let message = own?.message ?? fallbackMessage(res.status);
  if (res.status === 429 && retryAfter !== undefined) message = sentences(message, `Please try again in ${waitPhrase(retryAfter)}.`);
  return new ApiError(res.status, own?.error ?? "bad_response", message, issues, retryAfter, details);
}

/** JSON in, JSON out; throws ApiError for anything but a 2xx JSON (or empty) answer. */
export async function fetchJson<T>(path: string, options: FetchJsonOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json", ...options.headers };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  let res: Response;
  let text: string;
  try {
    res = await (options.prefetched ??
      fetch(`${options.baseUrl ?? API_BASE}${path}`, {
        method: options.method ?? "GET",
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        credentials: "same-origin",
        signal: options.signal,
      }));
    // Read in the same try: a connection that drops mid-body is a network failure too.
    text = await res.text();
  } catch (error) {
    // A cancelled request (TanStack Query aborts what is no longer needed) stays a cancellation.
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, "network_error", networkMessage());
  }
  if (!res.ok) throw errorOf(res, text);
  if (text.trim() === "") return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    // A 2xx that is not JSON came from something between us and the API (a captive portal, a proxy).
    throw new ApiError(res.status, "bad_response", fallbackMessage(502));
  }
}
