import type { ApiError } from "@/lib/api-client/fetch-json";

// What the guest reads when something fails: plain words for every failure the booking page
// can meet, never an error code, a status number or a server's ISO timestamp.

const KEPT = "What you typed is still here.";

/** The message under the form when fields are marked (by the browser's checks or the server's). */
export const fieldsToCorrect = (count: number) => (count === 1 ? "Please correct the field marked above." : "Please correct the fields marked above.");

/** The message above the booking form for a failed submit; field issues are shown at their fields. */
export function bookingFailureMessage(error: ApiError, options: { fieldIssues: number; timezone: string }): string {
  switch (error.code) {
    case "validation_error":
      if (options.fieldIssues > 0) return fieldsToCorrect(options.fieldIssues);
      if (error.issueAt("guestTimezone") !== undefined) return `The timezone ${options.timezone} is not one we can book in. Please choose another one above.`;
      return "This booking could not be accepted as sent. Please choose the time again, or reload the page.";
    case "rate_limited":
      // fetchJson has already added how long to wait, from Retry-After.
      return error.message;
    case "idempotency_key_in_use":
      return "Your booking is still being processed. Please wait a moment, then press “Confirm booking” again.";
    case "idempotency_key_mismatch":
      return "An earlier attempt to book may already have gone through. Check your email for a confirmation, or reload the page to start again.";
    case "not_found":
      return "This event can no longer be booked: the host may have removed it.";
    case "network_error":
    case "bad_response":
    case "internal_error":
    case "service_unavailable":
      return `${error.message} ${KEPT}`;
    default:
      return error.message;
  }
}

/** The message where the open times should be. */
export function slotsFailureMessage(error: ApiError, timezone: string): string {
  if (error.code === "validation_error") return `We cannot show times in ${timezone}. Please choose another timezone.`;
  if (error.code === "not_found") return "This event can no longer be booked: the host may have removed it.";
  return error.message;
}
