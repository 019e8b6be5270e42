import "server-only";
import { timingSafeEqual } from "node:crypto";
import { and, eq, inArray, ne } from "drizzle-orm";
import type { Db } from "@/db";
import { calendarConnections, calendarPushChannels } from "@/db/schema";
import { log } from "@/lib/log";
import { pushSecretHash } from "./push";
import { wakeCalendarSync } from "./sync-wake";

// A push notification arrives (decisions §17): it is believed only when it names a channel we
// hold and presents that channel's secret (compared as SHA-256, in constant time). It carries
// no calendar data we use: it only says "something changed", so the connection's sync is made
// due now and this process's sync loop woken; the provider's request is answered at once.
//
// Whatever it names, the caller answers alike (Google 200, Graph 202): a forged or stale
// notification changes nothing and learns nothing (no oracle for guessing channel ids or
// secrets), and the providers retry an error with backoff, so answering a stale channel of
// ours (stopped after a renewal, a disconnect whose stop failed) with one would only bring it back.

export type GoogleNotification = {
  channelId: string;
  token: string | undefined;
  resourceId: string | undefined;
  /** `sync` (the channel's first message), `exists`, `not_exists`. */
  resourceState: string;
};

export type GraphNotification = { subscriptionId: string; clientState?: string | null | undefined };

function secretMatches(presented: string | null | undefined, storedHash: string): boolean {
  if (presented === undefined || presented === null) return false;
  const a = Buffer.from(pushSecretHash(presented), "hex");
  const b = Buffer.from(storedHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Makes the connections' sync due now and wakes the sync loop; returns how many were marked. */
async function syncSoon(db: Db, connectionIds: string[], now: number): Promise<number> {
  if (connectionIds.length === 0) return 0;
  const marked = await db
    .update(calendarConnections)
    .set({ syncDueAt: new Date(now) })
    .where(and(inArray(calendarConnections.id, [...new Set(connectionIds)]), ne(calendarConnections.status, "reauth_required")))
    .returning({ id: calendarConnections.id });
  if (marked.length) wakeCalendarSync();
  return marked.length;
}

/** A Google channel's message; returns whether it made a sync due (false for `sync`, forged or stale ones). */
export async function receiveGoogleNotification(db: Db, message: GoogleNotification, now: number = Date.now()): Promise<boolean> {
  const [channel] = await db
    .select()
    .from(calendarPushChannels)
    .where(and(eq(calendarPushChannels.provider, "provider_a"), eq(calendarPushChannels.channelId, message.channelId)))
    .limit(1);
  const genuine = channel !== undefined && secretMatches(message.token, channel.secretHash) && (channel.resourceId === null || channel.resourceId === message.resourceId);
  if (!genuine) {
    log.info({ provider: "provider_a", known: channel !== undefined }, "calendar push: a notification that names no channel of ours, or with a wrong token, was ignored");
    return false;
  }
  // `sync` only says the channel works: nothing has changed yet.
  if (message.resourceState === "sync") return false;
  return (await syncSoon(db, [channel.connectionId], now)) > 0;
}

/** A Graph notification batch; returns how many connections it made due. */
export async function receiveGraphNotifications(db: Db, items: GraphNotification[], now: number = Date.now()): Promise<number> {
  const ids = [...new Set(items.map((i) => i.subscriptionId))];
  if (ids.length === 0) return 0;
  const channels = await db
    .select()
    .from(calendarPushChannels)
    .where(and(eq(calendarPushChannels.provider, "provider_b"), inArray(calendarPushChannels.channelId, ids)));
  const byId = new Map(channels.map((c) => [c.channelId, c]));
  const due: string[] = [];
  let ignored = 0;
  for (const item of items) {
    const channel = byId.get(item.subscriptionId);
    if (channel && secretMatches(item.clientState, channel.secretHash)) due.push(channel.connectionId);
    else ignored += 1;
  }
  if (ignored) log.info({ provider: "provider_b", ignored }, "calendar push: notifications that name no subscription of ours, or with a wrong clientState, were ignored");
  return syncSoon(db, due, now);
}
