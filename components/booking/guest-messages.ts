import type { ApiError } from "@/lib/browser/api-client/fetch-json";
import { fill, plural, waitPhrase } from "@/lib/i18n/fill";
import { zoneName } from "@/lib/time/zones";
import { activeGuestText, type GuestText } from "./guest-i18n";

// What the guest reads when something fails: plain words in the guest's language for every
// failure the booking page can meet, never an error code, a status number or a server's ISO
// timestamp. The API's own message (English) is shown only for a failure this page has no words for.

/** A failure of the connection or of the service, whatever was being done. */
function serviceFailure(error: ApiError, { locale, m }: GuestText): string | undefined {
  if (error.code === "network_error") return typeof navigator !== "undefined" && navigator.onLine === false ? m.offline : m.unreachable;
  if (error.code === "rate_limited" || error.status === 429) {
    // In English the API's own sentence says which limit (fetchJson has added how long to wait).
    if (locale === "en") return error.message;
    return error.retryAfterSeconds === undefined ? m.tooManyNow : fill(m.tooMany, { wait: waitPhrase(locale, error.retryAfterSeconds, m.about) });
  }
  if (error.code === "service_unavailable" || [502, 503, 504].includes(error.status)) return m.unavailable;
  if (error.code === "internal_error" || error.status >= 500) return m.serverError;
  if (error.code === "client_error" || error.code === "bad_response") return m.failed;
  return undefined;
}

/** The message under the form when fields are marked (by the browser's checks or the server's). */
export function fieldsToCorrect(count: number, text: GuestText | undefined = activeGuestText()): string {
  if (!text) return count === 1 ? "Please correct the field marked above." : "Please correct the fields marked above.";
  return plural(text.locale, text.m.fixFields, count);
}

/** The message above the booking form for a failed submit; field issues are shown at their fields. */
export function bookingFailureMessage(error: ApiError, options: { fieldIssues: number; timezone: string; text?: GuestText }): string {
  // The booking form may not pass the words yet: the page's own are the active ones.
  const text = options.text ?? activeGuestText();
  if (!text) return error.message;
  const { locale, m } = text;
  switch (error.code) {
    case "validation_error":
      if (options.fieldIssues > 0) return plural(locale, m.fixFields, options.fieldIssues);
      // The zone by the name the picker shows, never its id.
      if (error.issueAt("guestTimezone") !== undefined) return fill(m.badTimezone, { zone: zoneName(options.timezone, undefined, text.intl) });
      return m.notAccepted;
    case "idempotency_key_in_use":
      return m.stillProcessing;
    case "idempotency_key_mismatch":
      return m.earlierAttempt;
    case "not_found":
      return m.eventGone;
    case "gone":
      return m.linkGone;
  }
  const failure = serviceFailure(error, text);
  if (failure === undefined) return locale === "en" ? error.message : m.failed;
  // Whatever broke, what the guest typed was not lost.
  return error.code === "rate_limited" ? failure : `${failure} ${m.kept}`;
}

/** The message where the open times should be. */
export function slotsFailureMessage(error: ApiError, timezone: string, text: GuestText): string {
  if (error.code === "validation_error") return fill(text.m.slotsZone, { zone: timezone });
  if (error.code === "not_found") return text.m.eventGone;
  if (error.code === "gone") return text.m.linkGone;
  return serviceFailure(error, text) ?? (text.locale === "en" ? error.message : text.m.failed);
}

/** The message of a failed cancel or reschedule, for the guest's pages behind their link. */
export function manageFailureMessage(error: ApiError, text: GuestText): string {
  if (error.code === "not_found") return text.m.bookingGone;
  if (error.code === "booking_not_modifiable") return text.m.notModifiable;
  return serviceFailure(error, text) ?? (text.locale === "en" ? error.message : text.m.failed);
}
