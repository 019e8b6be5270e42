import "server-only";
import { AddressRefusedError } from "@/lib/net/outbound";
import { calendarError } from "../errors";
import { CalendarError } from "../types";

// What a failed CalDAV request says, read into lib/calendars/errors.ts' terms (which decides what
// it means). tsdav calls our fetch without saying what it is doing: these messages name the
// request, and the client's call puts the action in front (errors.ts `withAction`).

/** DAV:error's first child: the precondition a 403 names (RFC 4791 §1.3, e.g. no-uid-conflict). */
const PRECONDITION = /<(?:[\w-]+:)?error\b[^>]*>\s*<(?:[\w-]+:)?([\w-]+)/i;

/** An answer of 400 or more. The body is read (and so released) whatever the status. */
export async function statusFailure(response: Response, method: string, url: string): Promise<CalendarError> {
  const { status } = response;
  const body = await response.text().catch(() => "");
  // CalDAV answers 403 with a DAV:error body for refused content (RFC 4791 preconditions such
  // as no-uid-conflict); only a bare 403 means the login lost its access.
  const precondition = status === 403 ? PRECONDITION.exec(body)?.[1] : undefined;
  return calendarError("caldav", undefined, { type: "api", status, retryAfter: response.headers.get("retry-after"), request: { method, url }, precondition });
}

/** A request that got no answer, one the address policy refused, or one tsdav could not read. */
export function transportFailure(error: unknown, timeoutMs: number): CalendarError {
  if (error instanceof CalendarError) return error;
  const e = error as { name?: string; message?: string; cause?: { code?: string; name?: string } };
  if (e?.name === "TimeoutError" || e?.name === "AbortError" || e?.cause?.name === "TimeoutError") {
    return calendarError("caldav", undefined, { type: "no_answer", timedOut: true, timeoutMs });
  }
  if (e?.cause instanceof AddressRefusedError) return calendarError("caldav", undefined, { type: "address_refused", hostname: e.cause.hostname });
  if (e?.name === "TypeError" && e.message === "fetch failed") {
    return calendarError("caldav", undefined, { type: "no_answer", timedOut: false, code: e.cause?.code ?? e.cause?.name ?? "network error", timeoutMs });
  }
  // tsdav's own complaints (a missing principal, an unparsable answer).
  return calendarError("caldav", undefined, { type: "unreadable", message: String(e?.message ?? error) });
}
