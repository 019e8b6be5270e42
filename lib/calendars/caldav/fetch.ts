import "server-only";
import { fetch as undiciFetch, type Dispatcher } from "undici";
import { guardedDispatcher } from "@/lib/net/guarded-dispatcher";
import type { CalDavCredentials, CalendarError } from "../types";
import { ServerAddressRefused, caldavAddressGuard } from "./address";
import { statusFailure, transportFailure } from "./failure";

// How a request reaches the CalDAV server: through the outbound address policy when the host named
// the server (decisions §17: at every connection and every redirect), with the login and a
// timeout, and every failure as CalendarError.

export type Fetch = typeof fetch;

/** One public call's state: after an auth, outage or rate-limit failure, its other requests fail at once. */
export type Session = { failure?: CalendarError };

/** The dispatcher that holds a host-named server to the address policy; none for a trusted server. */
export function dispatcherFor(serverUrl: string, timeoutMs: number): Dispatcher | undefined {
  const guard = caldavAddressGuard(serverUrl);
  return guard ? guardedDispatcher(guard, { connectTimeoutMs: timeoutMs }) : undefined;
}

/** A failure that ends the whole call: retrying the next URL would only meet it again. */
function endsSession(failure: CalendarError): boolean {
  // 501 is a REPORT the server does not implement (sync-collection), not an outage.
  return failure.kind === "auth" || (failure.kind === "unavailable" && failure.status !== 501) || failure.kind === "rate_limited" || failure instanceof ServerAddressRefused;
}

/** fetch for tsdav: the login, a timeout per request, and failures as CalendarError. */
export function davFetch(credentials: CalDavCredentials, timeoutMs: number, session: Session, dispatcher: Dispatcher | undefined): Fetch {
  const authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}`;
  return async (input, init) => {
    if (session.failure) throw session.failure;
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? "GET";
    const headers = new Headers(init?.headers);
    headers.set("authorization", authorization);
    let failure: CalendarError;
    try {
      // The signal also covers reading the body, which tsdav does after this returns.
      const signal = AbortSignal.timeout(timeoutMs);
      const response = dispatcher
        ? ((await undiciFetch(url, { ...(init as Parameters<typeof undiciFetch>[1]), headers, signal, dispatcher })) as unknown as Response)
        : await fetch(input, { ...init, headers, signal });
      if (response.status < 400) return response;
      failure = await statusFailure(response, method, url);
    } catch (error) {
      failure = transportFailure(error, timeoutMs);
    }
    // tsdav tries several discovery URLs and swallows their errors; a refused login or a dead
    // server must not be retried URL after URL, each waiting for the timeout.
    if (endsSession(failure)) session.failure = failure;
    throw failure;
  };
}
