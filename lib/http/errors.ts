import "server-only";
import type { ErrorCode } from "@/lib/errors";

// The one error table: every code the API can answer with, and its HTTP status. The
// `satisfies Record<…>` makes a new code without a status a compile error. Services never see
// it: they throw codes (lib/errors.ts), and the transport converts.

export const errorStatus = {
  validation_error: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  gone: 410,
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
