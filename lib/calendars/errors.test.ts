import { describe, expect, it } from "vitest";
import { ServerAddressRefused } from "./caldav/address";
import { calendarError, revokeError, withAction, type ApiRefusal, type CalendarService, type TokenPhase, type TokenRefusal } from "./errors";
import { CalendarError } from "./types";

// The one mapper, as a table: what each provider's refusal means and says. The clients' own tests
// (google, microsoft, caldav) check the same against fakes and Radicale, through the wire.

const api = (status: number, extra: Partial<ApiRefusal> = {}): ApiRefusal => ({ type: "api", status, ...extra });
const token = (status: number, extra: Partial<TokenRefusal> = {}): TokenRefusal => ({ type: "token", status, ...extra });
const dav = (status: number, method = "GET", extra: Partial<ApiRefusal> = {}) => api(status, { request: { method, url: "https://dav.example.com/cal/a.ics?x=1" }, ...extra });

describe("calendarError: API refusals", () => {
  it.each<[CalendarService, ApiRefusal, Partial<CalendarError>]>([
    ["google", api(401, { message: "Invalid Credentials" }), { kind: "auth", message: "Doing: Google does not accept this calendar's access any more (401: Invalid Credentials); connect the calendar again" }],
    ["google", api(429, { retryAfter: "7" }), { kind: "rate_limited", status: 429, retryAfterMs: 7000, message: "Doing: Google asks to slow down (429)" }],
    ["google", api(403, { slowDown: true, retryAfter: "7" }), { kind: "rate_limited", status: 403, retryAfterMs: 7000 }],
    ["google", api(403, { message: "Forbidden" }), { kind: "rejected", status: 403, message: "Doing: Google refused (403: Forbidden)" }],
    ["google", api(503, { retryAfter: "7" }), { kind: "unavailable", retryAfterMs: undefined, message: "Doing: Google failed (503)" }],
    ["google", api(404), { kind: "not_found", message: "Doing: not found at Google (404)" }],
    ["google", api(410), { kind: "not_found", status: 410 }],
    ["google", api(409), { kind: "rejected", status: 409 }],
    ["google", api(400, { message: `${"x".repeat(300)}\nmore` }), { kind: "rejected", message: `Doing: Google refused (400: ${"x".repeat(200)})` }],
    ["microsoft", api(401, { code: "InvalidAuthenticationToken" }), { kind: "auth", message: "Doing: Microsoft does not accept this calendar's access any more (InvalidAuthenticationToken); connect the calendar again" }],
    ["microsoft", api(429, { code: "TooManyRequests", retryAfter: "7" }), { kind: "rate_limited", retryAfterMs: 7000 }],
    ["microsoft", api(503, { retryAfter: "7" }), { kind: "unavailable", retryAfterMs: 7000, message: "Doing: Microsoft Graph failed (503)" }],
    ["microsoft", api(404, { code: "ErrorItemNotFound" }), { kind: "not_found", message: "Doing: not found at Microsoft (ErrorItemNotFound)" }],
    ["microsoft", api(410, { code: "SyncStateNotFound" }), { kind: "rejected", status: 410 }],
    ["microsoft", api(403, { code: "ErrorAccessDenied", message: "Access is denied.\nCheck credentials" }), { kind: "rejected", message: "Doing: Microsoft refused (ErrorAccessDenied: Access is denied.)" }],
    ["caldav", dav(401), { kind: "auth", message: "CalDAV GET https://dav.example.com/cal/a.ics answered 401: the server refused the login" }],
    ["caldav", dav(403), { kind: "auth", message: "CalDAV GET https://dav.example.com/cal/a.ics answered 403: the login has no access" }],
    ["caldav", dav(403, "PUT", { precondition: "no-uid-conflict" }), { kind: "rejected", message: "CalDAV PUT https://dav.example.com/cal/a.ics answered 403 (no-uid-conflict)" }],
    ["caldav", dav(409, "PUT"), { kind: "not_found", message: "CalDAV PUT https://dav.example.com/cal/a.ics answered 409: the calendar does not exist" }],
    ["caldav", dav(409, "REPORT"), { kind: "rejected", status: 409 }],
    ["caldav", dav(410), { kind: "not_found" }],
    ["caldav", dav(429, "GET", { retryAfter: "7" }), { kind: "rate_limited", retryAfterMs: 7000 }],
    ["caldav", dav(501, "REPORT", { retryAfter: "7" }), { kind: "unavailable", status: 501, retryAfterMs: 7000, message: "CalDAV REPORT https://dav.example.com/cal/a.ics answered 501" }],
  ])("%s %o", (service, failure, expected) => {
    const error = calendarError(service, service === "caldav" ? undefined : "Doing", failure);
    expect(error).toBeInstanceOf(CalendarError);
    expect(error).toMatchObject({ status: failure.status, ...expected });
  });
});

describe("calendarError: token refusals", () => {
  it.each<[CalendarService, TokenRefusal, TokenPhase, Partial<CalendarError>]>([
    ["google", token(400, { error: "invalid_grant", description: "Token has been expired or revoked." }), "api", { kind: "auth", message: "Doing: Google no longer accepts this calendar's grant (revoked or expired); connect the calendar again" }],
    // In the consent callback, invalid_grant is a code used twice or a wrong verifier: the grant was never there.
    ["google", token(400, { error: "invalid_grant", description: "Bad Request" }), "exchange", { kind: "rejected", message: "Doing: Google refused the token request (invalid_grant: Bad Request)" }],
    ["google", token(429, { retryAfter: "7" }), "api", { kind: "rate_limited", retryAfterMs: 7000, message: "Doing: Google's token service asks to slow down" }],
    ["google", token(503, { retryAfter: "7" }), "api", { kind: "unavailable", retryAfterMs: undefined, message: "Doing: Google's token service failed (503)" }],
    ["microsoft", token(400, { error: "invalid_grant", description: "AADSTS70000: expired\ntrace" }), "exchange", { kind: "auth", message: "Doing: Microsoft no longer accepts this calendar's grant (invalid_grant: AADSTS70000: expired); connect the calendar again" }],
    ["microsoft", token(400, { error: "interaction_required" }), "api", { kind: "auth" }],
    ["microsoft", token(400, { error: "invalid_client" }), "api", { kind: "rejected", message: "Doing: Microsoft refused the token request (invalid_client)" }],
  ])("%s %o (%s)", (service, failure, phase, expected) => {
    expect(calendarError(service, "Doing", failure, phase)).toMatchObject({ status: failure.status, ...expected });
  });
});

describe("calendarError: no answer, refused addresses, unreadable answers", () => {
  it("says who did not answer, and within what", () => {
    expect(calendarError("google", "Doing", { type: "no_answer", timedOut: true, timeoutMs: 500 })).toMatchObject({ kind: "unavailable", status: undefined, message: "Doing: Google did not answer within 500 ms" });
    expect(calendarError("microsoft", "Doing", { type: "no_answer", timedOut: false, code: "ECONNREFUSED", timeoutMs: 500 }).message).toBe("Doing: Microsoft could not be reached (ECONNREFUSED)");
    expect(calendarError("google", "Doing", { type: "no_answer", timedOut: false, timeoutMs: 500 }).message).toBe("Doing: Google could not be reached");
    expect(calendarError("caldav", undefined, { type: "no_answer", timedOut: true, timeoutMs: 500 }).message).toBe("The CalDAV server did not answer within 500 ms");
  });

  it("a refused CalDAV address is ServerAddressRefused, and stays one when the action is added", () => {
    const refused = calendarError("caldav", undefined, { type: "address_refused", hostname: "db.internal" });
    expect(refused).toBeInstanceOf(ServerAddressRefused);
    expect(refused.message).toBe("The CalDAV server's address is not allowed: db.internal does not resolve to a public address");
    const led = withAction("Listing CalDAV calendars", refused);
    expect(led).toBeInstanceOf(ServerAddressRefused);
    expect(led.message).toBe("Listing CalDAV calendars: The CalDAV server's address is not allowed: db.internal does not resolve to a public address");
  });

  it("withAction keeps the kind, status and retry hint", () => {
    const limited = calendarError("caldav", undefined, dav(429, "GET", { retryAfter: "7" }));
    expect(withAction("Reading", limited)).toMatchObject({ kind: "rate_limited", status: 429, retryAfterMs: 7000, message: `Reading: ${limited.message}` });
  });

  it("an answer tsdav could not read is 'rejected', in 200 characters", () => {
    expect(calendarError("caldav", undefined, { type: "unreadable", message: "x".repeat(300) })).toMatchObject({ kind: "rejected", message: `Unexpected CalDAV answer: ${"x".repeat(200)}` });
  });
});

describe("revokeError", () => {
  it("passes on only the status; no answer, an outage or a 429 is worth another try", () => {
    expect(revokeError("google", undefined)).toMatchObject({ kind: "unavailable", status: undefined, message: "Google did not revoke the grant" });
    expect(revokeError("google", 503)).toMatchObject({ kind: "unavailable", message: "Google did not revoke the grant (503)" });
    expect(revokeError("google", 429)).toMatchObject({ kind: "unavailable" });
    expect(revokeError("google", 400)).toMatchObject({ kind: "rejected", status: 400 });
  });
});
