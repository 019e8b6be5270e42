import "server-only";
import { ServerAddressRefused } from "./caldav/address";
import { CalendarError, retryAfterMs, type CalendarErrorKind } from "./types";

// The one place a provider's failure becomes a CalendarError, for all three clients. Each client
// reads its library's failure into plain facts (a ProviderFailure): that is wire format and stays
// with the client. What the facts mean is decided here: the kind (what the caller does next:
// connect again, try later, treat the thing as gone, give up), the words (never a credential or a
// token) and the retry hint. Where the providers differ, the difference is a field of `dialects`,
// side by side, not a branch hidden in one client.

export type CalendarService = "google" | "microsoft" | "caldav";

/** A request that got no HTTP answer: it timed out, or the server could not be reached. */
export type NoAnswer = {
  type: "no_answer";
  timedOut: boolean;
  /** The network failure's code (ECONNREFUSED, ENOTFOUND…), when there is one. */
  code?: string;
  timeoutMs: number;
};

/** The outbound address policy (lib/net) refused the server a host named. */
export type AddressRefused = { type: "address_refused"; hostname: string };

/** An answer the client library could not make sense of (tsdav's own complaints). */
export type Unreadable = { type: "unreadable"; message: string };

/** The OAuth token endpoint refused (RFC 6749 §5.2: `error`, `error_description`). */
export type TokenRefusal = { type: "token"; status: number; error?: string; description?: string; retryAfter?: string | null };

/** The calendar API refused. */
export type ApiRefusal = {
  type: "api";
  status: number;
  /** The provider's error code (Graph's `error.code`), when it names one. */
  code?: string;
  /** The provider's own words about the failure (never from a field that holds credentials). */
  message?: string;
  retryAfter?: string | null;
  /** "Slow down" sent with another status than 429 (Google's 403 rateLimitExceeded). */
  slowDown?: boolean;
  /** The request, where messages name it (CalDAV: tsdav's fetch does not know the action). */
  request?: { method: string; url: string };
  /** The DAV:error precondition a CalDAV 403 names (RFC 4791 §5.3.2.1: refused content). */
  precondition?: string;
};

export type ProviderFailure = NoAnswer | AddressRefused | Unreadable | TokenRefusal | ApiRefusal;

/** A token request made by the consent callback's code exchange, or by a client refreshing its token. */
export type TokenPhase = "exchange" | "api";

type Dialect = {
  /** How messages name the provider. */
  name: string;
  /** How messages name whom a request could not reach. */
  server: string;
  /** 410 Gone means gone (Google's deleted event, a CalDAV object); Graph's 410 is a spent delta link, which the client reads by status. */
  goneIsNotFound: boolean;
  /** A bare 403 means the login lost its access (CalDAV); Google and Graph say why in the body, so it is a refusal. */
  forbiddenIsAuth: boolean;
  /** A 5xx's Retry-After is kept (Graph, CalDAV); Google's never was. */
  outageRetryAfter: boolean;
  /** Only the first line of the provider's words (Graph's may run on). */
  firstLineOnly: boolean;
  /** The token endpoint's `error` codes after which only a new consent helps. */
  grantLost: ReadonlySet<string>;
  /** Whether those count in the consent callback's own code exchange (Google's invalid_grant there is a code used twice, not a lost grant). */
  grantLostAtExchange: boolean;
  /** The parenthesis of the "no longer accepts this calendar's grant" message. */
  grantLostWhy: (detail: string) => string;
  /** The words of an API refusal of each kind (how they name the provider, and its API when that fails). */
  refusal: (kind: CalendarErrorKind, lead: string, failure: ApiRefusal, detail: string) => string;
};

/** Google's and Graph's refusals: who refused and the provider's detail. */
const refusalWords =
  (name: string, failing: string): Dialect["refusal"] =>
  (kind, lead, _failure, detail) => {
    switch (kind) {
      case "auth":
        return `${lead}${name} does not accept this calendar's access any more (${detail}); connect the calendar again`;
      case "rate_limited":
        return `${lead}${name} asks to slow down (${detail})`;
      case "unavailable":
        return `${lead}${failing} failed (${detail})`;
      case "not_found":
        return `${lead}not found at ${name} (${detail})`;
      case "rejected":
        return `${lead}${name} refused (${detail})`;
    }
  };

/** CalDAV's refusals: the request and its status, and what it means where the status alone does not say. */
function davRefusalWords(kind: CalendarErrorKind, lead: string, failure: ApiRefusal): string {
  const { method = "", url = "" } = failure.request ?? {};
  const where = `${lead}CalDAV ${method} ${url.split("?")[0]} answered ${failure.status}`;
  if (kind === "auth") return `${where}: ${failure.status === 401 ? "the server refused the login" : "the login has no access"}`;
  if (kind === "not_found" && failure.status === 409) return `${where}: the calendar does not exist`;
  if (failure.precondition) return `${where} (${failure.precondition})`;
  return where;
}

const dialects: Record<CalendarService, Dialect> = {
  google: {
    name: "Google",
    server: "Google",
    goneIsNotFound: true,
    forbiddenIsAuth: false,
    outageRetryAfter: false,
    firstLineOnly: false,
    grantLost: new Set(["invalid_grant"]),
    grantLostAtExchange: false,
    grantLostWhy: () => "revoked or expired",
    refusal: refusalWords("Google", "Google"),
  },
  microsoft: {
    name: "Microsoft",
    server: "Microsoft",
    goneIsNotFound: false,
    forbiddenIsAuth: false,
    outageRetryAfter: true,
    firstLineOnly: true,
    // invalid_grant: revoked, expired or a password change; interaction_required: MFA or
    // conditional access now wants the person at a browser. Either way only a new consent helps.
    grantLost: new Set(["invalid_grant", "interaction_required"]),
    grantLostAtExchange: true,
    grantLostWhy: (detail) => detail,
    refusal: refusalWords("Microsoft", "Microsoft Graph"),
  },
  caldav: {
    name: "CalDAV",
    server: "The CalDAV server",
    goneIsNotFound: true,
    forbiddenIsAuth: true,
    outageRetryAfter: true,
    firstLineOnly: false,
    grantLost: new Set(),
    grantLostAtExchange: false,
    grantLostWhy: (detail) => detail,
    refusal: davRefusalWords,
  },
};

/** The provider's own words, short: ": …" or nothing. */
function clip(dialect: Dialect, text: string | undefined): string {
  if (!text) return "";
  return `: ${(dialect.firstLineOnly ? text.split(/\r?\n/)[0]! : text).slice(0, 200)}`;
}

/** What an API's HTTP status means: the one table for every provider. */
function apiKind(dialect: Dialect, failure: ApiRefusal): CalendarErrorKind {
  const { status } = failure;
  if (status === 429 || failure.slowDown) return "rate_limited";
  if (status >= 500) return "unavailable";
  // For Google and Graph, reached only after a refreshed token was refused too.
  if (status === 401) return "auth";
  if (status === 404) return "not_found";
  if (status === 410) return dialect.goneIsNotFound ? "not_found" : "rejected";
  // A PUT into a collection that does not exist is 409 (RFC 4918 §9.7.1): the calendar is gone.
  if (status === 409 && failure.request?.method === "PUT") return "not_found";
  if (status === 403 && dialect.forbiddenIsAuth && !failure.precondition) return "auth";
  return "rejected";
}

function apiError(dialect: Dialect, lead: string, failure: ApiRefusal): CalendarError {
  const kind = apiKind(dialect, failure);
  const detail = `${failure.code ?? failure.status}${clip(dialect, failure.message)}`;
  const keepsRetryAfter = kind === "rate_limited" || (kind === "unavailable" && dialect.outageRetryAfter);
  return new CalendarError(kind, dialect.refusal(kind, lead, failure, detail), failure.status, keepsRetryAfter ? retryAfterMs(failure.retryAfter) : undefined);
}

function tokenError(dialect: Dialect, lead: string, failure: TokenRefusal, phase: TokenPhase): CalendarError {
  const { status, error } = failure;
  const detail = `${error ?? status}${clip(dialect, failure.description)}`;
  const name = dialect.name;
  if (status === 429) return new CalendarError("rate_limited", `${lead}${name}'s token service asks to slow down`, status, retryAfterMs(failure.retryAfter));
  if (status >= 500) return new CalendarError("unavailable", `${lead}${name}'s token service failed (${detail})`, status);
  if (error !== undefined && dialect.grantLost.has(error) && (phase === "api" || dialect.grantLostAtExchange)) {
    return new CalendarError("auth", `${lead}${name} no longer accepts this calendar's grant (${dialect.grantLostWhy(detail)}); connect the calendar again`, status);
  }
  return new CalendarError("rejected", `${lead}${name} refused the token request (${detail})`, status);
}

/**
 * The CalendarError a provider's failure is. `action` leads the message ("Listing Google
 * calendars: …"); CalDAV's fetch does not know it, and its client adds it later (`withAction`).
 */
export function calendarError(service: CalendarService, action: string | undefined, failure: ProviderFailure, phase: TokenPhase = "api"): CalendarError {
  const dialect = dialects[service];
  const lead = action ? `${action}: ` : "";
  switch (failure.type) {
    case "no_answer":
      return new CalendarError(
        "unavailable",
        failure.timedOut
          ? `${lead}${dialect.server} did not answer within ${failure.timeoutMs} ms`
          : `${lead}${dialect.server} could not be reached${failure.code ? ` (${failure.code})` : ""}`,
      );
    case "address_refused":
      return new ServerAddressRefused(`${lead}${dialect.server}'s address is not allowed: ${failure.hostname} does not resolve to a public address`);
    case "unreadable":
      // Short, and never the login: tsdav's complaints name what it missed (a principal, a tag).
      return new CalendarError("rejected", `${lead}Unexpected ${dialect.name} answer: ${failure.message.slice(0, 200)}`);
    case "token":
      return tokenError(dialect, lead, failure, phase);
    case "api":
      return apiError(dialect, lead, failure);
  }
}

/** The same failure, its message led by the action it interrupted (CalDAV learns that only after its fetch failed). */
export function withAction(action: string, error: CalendarError): CalendarError {
  if (error instanceof ServerAddressRefused) return new ServerAddressRefused(`${action}: ${error.message}`);
  return new CalendarError(error.kind, `${action}: ${error.message}`, error.status, error.retryAfterMs);
}

/**
 * A revoke the provider did not do. The revoke URL carries the token, so nothing of the failure
 * but its status is passed on; no answer, an outage or a 429 is worth trying again.
 */
export function revokeError(service: CalendarService, status: number | undefined): CalendarError {
  const kind = status === undefined || status >= 500 || status === 429 ? "unavailable" : "rejected";
  return new CalendarError(kind, `${dialects[service].name} did not revoke the grant${status ? ` (${status})` : ""}`, status);
}
