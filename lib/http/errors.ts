// The one error table: every code the API can answer with, and its HTTP status. The
// `satisfies Record<…>` makes a new code without a status a compile error.

export type ErrorCode =
  | "validation_error"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "slot_unavailable"
  | "idempotency_key_in_use"
  | "booking_not_modifiable"
  | "idempotency_key_mismatch"
  | "payload_too_large"
  | "rate_limited"
  | "internal_error"
  | "provider_unavailable"
  | "service_unavailable";

export const errorStatus = {
  validation_error: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  slot_unavailable: 409,
  idempotency_key_in_use: 409,
  booking_not_modifiable: 409,
  idempotency_key_mismatch: 422,
  payload_too_large: 413,
  rate_limited: 429,
  internal_error: 500,
  provider_unavailable: 503,
  service_unavailable: 503,
} as const satisfies Record<ErrorCode, number>;

export type ValidationIssue = { path: string; message: string };

/** An expected failure: services throw it, the route wrapper answers with it. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

export function validationError(issues: ValidationIssue[], message = "The request is invalid"): AppError {
  return new AppError("validation_error", message, { issues });
}

export const notFound = (what = "Resource") => new AppError("not_found", `${what} not found`);
