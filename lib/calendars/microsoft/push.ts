import "server-only";
import { CalendarError, deleteIgnoringGone, type CalendarPush, type PushSubscription } from "../types";
import type { MicrosoftSession } from "./session";

// Push: Graph subscriptions (decisions §17).

/** Graph keeps a subscription to events at most 4230 minutes; a little less leaves room for clock skew. */
const SUBSCRIPTION_LIFETIME_MS = 4200 * 60_000;

function toSubscription(body: unknown, action: string): PushSubscription {
  const sub = (body ?? {}) as { id?: unknown; expirationDateTime?: unknown };
  const expiresAt = Date.parse(typeof sub.expirationDateTime === "string" ? sub.expirationDateTime : "");
  if (typeof sub.id !== "string" || !sub.id || Number.isNaN(expiresAt)) throw new CalendarError("rejected", `${action}: Microsoft returned no subscription`);
  return { channelId: sub.id, resourceId: null, expiresAt };
}

/**
 * `POST /subscriptions` on a calendar's events. Before answering, Graph POSTs to the
 * notificationUrl with `?validationToken=…` and wants it echoed within 10 s (our hook route does),
 * then sends each change with our clientState. Renewed in place by PATCH.
 */
export function graphPush({ graph }: MicrosoftSession): CalendarPush {
  const expiry = (expiresAt: number) => new Date(Math.min(expiresAt, Date.now() + SUBSCRIPTION_LIFETIME_MS)).toISOString();
  return {
    maxLifetimeMs: SUBSCRIPTION_LIFETIME_MS,
    async subscribe(calendarId, { address, secret, expiresAt }) {
      const action = "Subscribing to the Microsoft calendar";
      const { body } = await graph("POST", "/subscriptions", action, {
        body: {
          changeType: "created,updated,deleted",
          notificationUrl: address,
          resource: `me/calendars/${encodeURIComponent(calendarId)}/events`,
          expirationDateTime: expiry(expiresAt),
          clientState: secret,
        },
      });
      return toSubscription(body, action);
    },
    async renew(subscription, expiresAt) {
      const action = "Renewing the Microsoft subscription";
      const { body } = await graph("PATCH", `/subscriptions/${encodeURIComponent(subscription.channelId)}`, action, { body: { expirationDateTime: expiry(expiresAt) } });
      return toSubscription(body, action);
    },
    unsubscribe: ({ channelId }) =>
      deleteIgnoringGone(() => graph("DELETE", `/subscriptions/${encodeURIComponent(channelId)}`, "Ending the Microsoft subscription")),
  };
}
