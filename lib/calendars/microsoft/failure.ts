import "server-only";
import { calendarError, type TokenPhase } from "../errors";
import type { CalendarError } from "../types";
import type { Answer } from "./wire";

// What a failed Microsoft request says, read from the identity platform's and Graph's answers into
// lib/calendars/errors.ts' terms (which decides what it means). Failures leave the Microsoft
// client only as CalendarError, whose messages never carry a token.

const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/** A request that got no answer: a timeout, or a network failure. */
export function unansweredError(e: unknown, action: string, timeoutMs: number): CalendarError {
  const name = e instanceof Error ? e.name : "";
  const code = e instanceof Error && e.cause && typeof e.cause === "object" && "code" in e.cause ? e.cause.code : undefined;
  return calendarError("microsoft", action, { type: "no_answer", timedOut: name === "TimeoutError" || name === "AbortError", code: text(code), timeoutMs });
}

/** The identity platform's refusal of a token request (RFC 6749 §5.2). */
export function tokenError(answer: Answer, action: string, phase: TokenPhase): CalendarError {
  const data = (answer.body ?? {}) as { error?: unknown; error_description?: unknown };
  const failure = { type: "token", status: answer.status, error: text(data.error), description: text(data.error_description), retryAfter: answer.headers.get("retry-after") } as const;
  return calendarError("microsoft", action, failure, phase);
}

/** Graph's refusal (`{ error: { code, message } }`). */
export function graphError(answer: Answer, action: string): CalendarError {
  const error = ((answer.body ?? {}) as { error?: { code?: unknown; message?: unknown } }).error ?? {};
  return calendarError("microsoft", action, { type: "api", status: answer.status, code: text(error.code), message: text(error.message), retryAfter: answer.headers.get("retry-after") });
}
