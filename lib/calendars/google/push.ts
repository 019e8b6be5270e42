import "server-only";
import { randomUUID } from "node:crypto";
import { CalendarError, deleteIgnoringGone, type CalendarPush } from "../types";
import { callOptions } from "./oauth";
import type { GoogleSession } from "./session";

// Push: watch channels (decisions §17).

/** Google's default (and what it grants for events) is a week; it may answer with less. */
const CHANNEL_LIFETIME_MS = 7 * 86_400_000;

/**
 * `events.watch` on a calendar: Google POSTs to `address` with X-Goog-Channel-ID, the channel
 * token we chose, X-Goog-Resource-ID/-State on every change (`sync` once at the start). A
 * channel cannot be extended: the caller opens a new one and stops the old.
 */
export function googlePush({ api, call }: GoogleSession): CalendarPush {
  return {
    maxLifetimeMs: CHANNEL_LIFETIME_MS,
    async subscribe(calendarId, { address, secret, expiresAt }) {
      const id = randomUUID();
      const ttlSeconds = Math.max(60, Math.round((Math.min(expiresAt - Date.now(), CHANNEL_LIFETIME_MS)) / 1000));
      const { data } = await call("Watching the Google calendar", () =>
        api.events.watch({ calendarId, requestBody: { id, type: "web_hook", address, token: secret, params: { ttl: String(ttlSeconds) } } }, callOptions()),
      );
      if (!data.resourceId) throw new CalendarError("rejected", "Watching the Google calendar: Google returned no resourceId");
      const expiration = Number(data.expiration);
      return { channelId: data.id ?? id, resourceId: data.resourceId, expiresAt: Number.isFinite(expiration) && expiration > 0 ? expiration : Date.now() + ttlSeconds * 1000 };
    },
    unsubscribe: ({ channelId, resourceId }) =>
      deleteIgnoringGone(() =>
        call("Stopping the Google channel", () => api.channels.stop({ requestBody: { id: channelId, resourceId: resourceId ?? undefined } }, callOptions())),
      ),
  };
}
