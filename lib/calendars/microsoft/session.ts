import "server-only";
import { log } from "@/lib/log";
import { CalendarError, type OAuthProvider } from "../types";
import { graphError } from "./failure";
import { send } from "./http";
import { settings } from "./settings";
import { tokenRequest } from "./token";
import type { Answer } from "./wire";

// One connected account's way to Graph: its access token, refreshed when stale or refused, and
// `graph`, which every request of the client goes through.

/** A stored access token this close to its expiry is refreshed first rather than sent. */
const REFRESH_MARGIN_MS = 60_000;

export type GraphCall = (method: string, pathOrUrl: string, action: string, options?: { body?: unknown; headers?: Record<string, string> }) => Promise<Answer>;

export type MicrosoftSession = {
  /** One Graph request with the account's token; anything but a 2xx leaves as CalendarError. */
  graph: GraphCall;
  /** Every item of a collection, following @odata.nextLink. */
  all<T>(path: string, action: string, headers?: Record<string, string>): Promise<T[]>;
};

/** A link Graph handed back carries our bearer token when followed: only ever to Graph itself. */
export function assertGraphLink(link: string, action: string, what = "a paging link"): void {
  if (new URL(link).origin !== new URL(settings().graphBaseUrl).origin) throw new CalendarError("rejected", `${action}: Microsoft sent ${what} to another host`);
}

export function microsoftSession(args: Parameters<OAuthProvider["client"]>[0]): MicrosoftSession {
  const { onAccessToken, onRefreshToken } = args;
  // Microsoft hands out a new refresh token with each refresh: this client uses the newest one,
  // and hands it to onRefreshToken so the stored grant does not age out (90 days from issue).
  let refreshToken = args.refreshToken;
  let token = args.access;
  let refreshes = 0;
  let refreshing: Promise<string> | undefined;

  /** One refresh at a time: concurrent calls that find the token stale share it. */
  function refresh(): Promise<string> {
    refreshing ??= (async () => {
      try {
        const fresh = await tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken }, "Refreshing the Microsoft access token");
        if (fresh.refreshToken && fresh.refreshToken !== refreshToken) {
          refreshToken = fresh.refreshToken;
          await onRefreshToken?.(fresh.refreshToken).catch((err: unknown) => log.warn({ err }, "could not store a rotated Microsoft refresh token"));
        }
        token = fresh.access;
        refreshes += 1;
        await onAccessToken(fresh.access).catch((err: unknown) => log.warn({ err }, "could not store a refreshed Microsoft access token"));
        return fresh.access.accessToken;
      } finally {
        refreshing = undefined;
      }
    })();
    return refreshing;
  }

  async function bearer(): Promise<string> {
    if (token && token.expiresAt - REFRESH_MARGIN_MS > Date.now()) return token.accessToken;
    return refresh();
  }

  const graph: GraphCall = async (method, pathOrUrl, action, options = {}) => {
    const url = pathOrUrl.startsWith("/") ? `${settings().graphBaseUrl}${pathOrUrl}` : pathOrUrl;
    const headers = (accessToken: string) => ({
      accept: "application/json",
      authorization: `Bearer ${accessToken}`,
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      ...options.headers,
    });
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const request = (accessToken: string) => send(url, { method, headers: headers(accessToken), body }, action);
    const before = refreshes;
    const used = await bearer();
    let answer = await request(used);
    if (answer.status === 401 && refreshes === before) {
      // A token we still believed valid was refused (revoked session, clock skew, continuous
      // access evaluation): once more with a fresh one. A 401 right after a refresh is final.
      answer = await request(token && token.accessToken !== used ? token.accessToken : await refresh());
    }
    if (answer.status >= 200 && answer.status < 300) return answer;
    throw graphError(answer, action);
  };

  async function all<T>(path: string, action: string, headers?: Record<string, string>): Promise<T[]> {
    const items: T[] = [];
    let next: string | undefined = path;
    while (next) {
      const { body } = await graph("GET", next, action, { headers });
      const page = (body ?? {}) as { value?: T[]; "@odata.nextLink"?: unknown };
      items.push(...(page.value ?? []));
      next = typeof page["@odata.nextLink"] === "string" ? page["@odata.nextLink"] : undefined;
      if (next) assertGraphLink(next, action);
    }
    return items;
  }

  return { graph, all };
}
