import "server-only";
import { getConfig } from "@/lib/config";
import { calendarError, type ProviderFailure, type TokenPhase } from "../errors";
import { CalendarError } from "../types";

// What a failed Google request says, read from gaxios' error into lib/calendars/errors.ts' terms
// (which decides what it means). Failures leave the Google client only as CalendarError, whose
// messages never carry a token.

/** Google sends these as 403, but they mean "slow down", like a 429. */
const RATE_LIMIT_REASONS = new Set(["rateLimitExceeded", "userRateLimitExceeded"]);

export type HttpFailure = {
  config?: { url?: string | URL };
  response?: { status?: number; data?: unknown; headers?: { get?(name: string): string | null } };
  code?: unknown;
  error?: { name?: string; cause?: { code?: unknown } };
};

/** gaxios errors are recognised by shape: googleapis and google-auth-library carry separate gaxios copies. */
export function asHttpFailure(e: unknown): HttpFailure | undefined {
  return e instanceof Error && "config" in e ? (e as HttpFailure) : undefined;
}

export function statusOf(e: unknown): number | undefined {
  return asHttpFailure(e)?.response?.status;
}

export function isTokenEndpoint(failure: HttpFailure): boolean {
  const url = failure.config?.url;
  return url !== undefined && new URL(String(url)).href === new URL(getConfig().googleEndpoints.tokenUrl).href;
}

const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/** The facts of a gaxios failure; undefined when it is no HTTP failure. */
function failureOf(e: unknown): ProviderFailure | undefined {
  const failure = asHttpFailure(e);
  if (!failure) return undefined;
  const status = failure.response?.status;
  if (status === undefined) {
    const timedOut = failure.error?.name === "TimeoutError" || failure.error?.name === "AbortError";
    return { type: "no_answer", timedOut, code: text(failure.error?.cause?.code ?? failure.code), timeoutMs: getConfig().calendarTimeoutMs };
  }
  const retryAfter = failure.response?.headers?.get?.("retry-after");
  if (isTokenEndpoint(failure)) {
    const data = (failure.response?.data ?? {}) as { error?: unknown; error_description?: unknown };
    return { type: "token", status, error: text(data.error), description: text(data.error_description), retryAfter };
  }
  const body = (failure.response?.data ?? {}) as { error?: { message?: unknown; errors?: { reason?: unknown }[] } };
  const reasons = (body.error?.errors ?? []).map((r) => r.reason);
  const slowDown = status === 403 && reasons.some((r) => typeof r === "string" && RATE_LIMIT_REASONS.has(r));
  return { type: "api", status, message: text(body.error?.message), retryAfter, slowDown };
}

/** Any failure of a Google call as CalendarError; `exchange` is the consent callback's code exchange. */
export function toCalendarError(e: unknown, action: string, phase: TokenPhase): unknown {
  if (e instanceof CalendarError) return e;
  const failure = failureOf(e);
  // Not an HTTP failure: a bug, let it surface as one.
  return failure ? calendarError("google", action, failure, phase) : e;
}
