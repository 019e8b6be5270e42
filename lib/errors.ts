// What can go wrong in the domain, said without HTTP: services throw AppError with a code, and
// only the transport (lib/http/errors.ts) knows which status each code answers with. Jobs,
// pages and server actions call the same services and read the same codes.

export type ErrorCode =
  | "validation_error"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "gone"
  | "slot_unavailable"
  | "idempotency_key_in_use"
  | "booking_not_modifiable"
  | "idempotency_key_mismatch"
  | "payload_too_large"
  | "rate_limited"
  | "internal_error"
  | "provider_unavailable"
  | "service_unavailable";

export type ValidationIssue = { path: string; message: string };

/** The state of a rate limit a request was counted against: the transport turns it into headers. */
export type RateLimitState = {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
  /** The limit's name and window, for RateLimit-Policy. */
  policy?: { name: string; windowSeconds: number };
};

/** An expected failure: services throw it, the route wrapper (or a page) answers with it. */
export class AppError extends Error {
  /** The limit this request was counted against before it failed, if any. */
  rateLimit: RateLimitState | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    options: { rateLimit?: RateLimitState } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.rateLimit = options.rateLimit;
  }
}

export function validationError(issues: ValidationIssue[], message = "The request is invalid"): AppError {
  return new AppError("validation_error", message, { issues });
}

export const notFound = (what = "Resource") => new AppError("not_found", `${what} not found`);
