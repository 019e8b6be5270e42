import "server-only";
import { createAccount, type DAVAccount } from "tsdav";
import { getConfig } from "@/lib/config";
import { withAction } from "../errors";
import { CalendarError, type CalDavCredentials } from "../types";
import { ServerAddressRefused } from "./address";
import { davFetch, dispatcherFor, type Fetch, type Session } from "./fetch";
import { transportFailure } from "./failure";

// One CalDAV login's way to its server: `call` runs each public call of the client with its own
// session and fetch, and `discover` finds the calendar home once per client.

export type DavConnection = {
  readonly credentials: CalDavCredentials;
  /** Runs one public call with its own session; every failure leaves as CalendarError, led by `action`. */
  call<T>(action: string, work: (fetch: Fetch) => Promise<T>): Promise<T>;
  /** Discovery (/.well-known/caldav, principal, calendar home), done once per client. */
  discover(fetch: Fetch): Promise<DAVAccount>;
};

function parsed(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

export function davConnection(credentials: CalDavCredentials, options: { timeoutMs?: number } = {}): DavConnection {
  const timeoutMs = options.timeoutMs ?? getConfig().calendarTimeoutMs;
  const dispatcher = dispatcherFor(credentials.serverUrl, timeoutMs);
  const server = parsed(credentials.serverUrl);
  let account: Promise<DAVAccount> | undefined;

  async function call<T>(action: string, work: (fetch: Fetch) => Promise<T>): Promise<T> {
    if (!server || !/^https?:$/.test(server.protocol) || server.username || server.password) {
      throw new CalendarError("rejected", `${action}: the CalDAV server address must be an http(s) URL without a login in it`);
    }
    const session: Session = {};
    try {
      return await work(davFetch(credentials, timeoutMs, session, dispatcher));
    } catch (error) {
      throw withAction(action, transportFailure(session.failure ?? error, timeoutMs));
    }
  }

  function discover(fetch: Fetch): Promise<DAVAccount> {
    account ??= createAccount({ account: { serverUrl: credentials.serverUrl, accountType: "caldav" }, fetch }).catch((error: unknown) => {
      account = undefined;
      if (error instanceof CalendarError && ((error.kind !== "not_found" && error.kind !== "rejected") || error instanceof ServerAddressRefused)) throw error;
      throw new CalendarError("rejected", `No CalDAV calendar home found at ${server?.origin}`, error instanceof CalendarError ? error.status : undefined);
    });
    return account;
  }

  return { credentials, call, discover };
}
