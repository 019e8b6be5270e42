import "server-only";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, asc, eq, gt, inArray, lt, lte, ne, notInArray, notLike, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { calendarConnections, calendarPushChannels, calendars, type CalendarConnectionRow, type CalendarPushChannelRow } from "@/db/schema";
import { CalendarError, oauthProviderOf, type CalendarPush, type OAuthProviderId } from "@/lib/calendars";
import { getConfig } from "@/lib/config";
import { newId } from "@/lib/ids";
import { calendarHookUrl, siteIsHttps } from "@/lib/links";
import { log } from "@/lib/log";
import { lockName } from "@/lib/store/locks";
import { connectionClient } from "./store";

// Push channels (decisions §17): Google watch channels and Graph subscriptions, one per
// conflict-checking calendar of a Google or Microsoft connection, so a change in the calendar
// reaches the slots within seconds instead of at the next poll. Only where APP_URL is https
// (neither provider calls anything else) and the provider is configured. Created on connect,
// renewed by the calendar loop before they expire, stopped on disconnect. The secret each
// notification presents is random, sent to the provider and kept here only as its SHA-256.
//
// Every change of a row is claimed first, so instances sharing one PostgreSQL never do the same
// work twice: a calendar's new channel by a placeholder row inserted under the calendar's lock
// (channel id `pending-…`, living LEASE_MS), a renewal by moving the row's recorded expiry on by
// LEASE_MS in the claiming statement (like the sync loop's due time). An instance that dies
// mid-way leaves a lease that runs out; the channel it was making at the provider expires
// unheard (a notification for an unknown channel changes nothing).

/** How long before its expiry a channel is renewed: several of the loop's rounds, and a provider outage of hours. */
export const PUSH_RENEW_MARGIN_MS = 24 * 3_600_000;
/** How long one instance holds a channel it is creating or renewing. */
const LEASE_MS = 10 * 60_000;
const PENDING = "pending-";

export const pushSecretHash = (secret: string) => createHash("sha256").update(secret).digest("hex");

/** Whether push is to be used for this provider now: APP_URL https, CALENDAR_PUSH on, the OAuth app configured. */
export function pushAvailable(provider: CalendarConnectionRow["provider"]): provider is OAuthProviderId {
  if (provider === "provider_c" || !getConfig().calendarPush || !siteIsHttps()) return false;
  return oauthProviderOf(provider).configured();
}

function pushOf(db: Db, connection: CalendarConnectionRow): CalendarPush {
  const push = connectionClient(db, connection).push;
  if (!push) throw new CalendarError("rejected", `${connection.provider} offers no push notifications`);
  return push;
}

function logFailure(error: unknown, what: string, context: Record<string, unknown>): void {
  if (error instanceof CalendarError) log.warn({ ...context, kind: error.kind, httpStatus: error.status, reason: error.message }, what);
  else log.error({ ...context, err: error }, what);
}

/** Ends one channel at the provider; a failure is logged (it expires by itself). */
async function stopAtProvider(push: CalendarPush, row: CalendarPushChannelRow): Promise<void> {
  if (row.channelId.startsWith(PENDING)) return;
  try {
    await push.unsubscribe({ channelId: row.channelId, resourceId: row.resourceId });
  } catch (error) {
    logFailure(error, "calendar push: could not stop a channel at the provider (it expires by itself)", { channelId: row.id, provider: row.provider });
  }
}

/**
 * Makes sure each conflict-checking calendar of the connection has a live channel: creates the
 * missing ones (a failure is logged; the calendar loop tries again later). Returns how many it
 * created. Does nothing where push is not available.
 */
export async function ensurePushChannels(db: Db, connectionId: string, now: number = Date.now()): Promise<number> {
  const [connection] = await db.select().from(calendarConnections).where(eq(calendarConnections.id, connectionId)).limit(1);
  if (!connection || connection.status === "reauth_required" || !pushAvailable(connection.provider)) return 0;
  const watched = await db
    .select({ id: calendars.id, externalId: calendars.externalId })
    .from(calendars)
    .where(and(eq(calendars.connectionId, connectionId), eq(calendars.checkConflicts, true)))
    .orderBy(asc(calendars.id));
  let created = 0;
  let push: CalendarPush | undefined;
  for (const calendar of watched) {
    const secret = randomBytes(32).toString("base64url");
    const placeholder = await db.transaction(async (tx) => {
      await lockName(tx, `calendar-push:${calendar.id}`);
      const rows = await tx.select().from(calendarPushChannels).where(eq(calendarPushChannels.calendarId, calendar.id));
      if (rows.some((r) => r.expiresAt.getTime() > now)) return undefined;
      // What is left has expired at the provider (or is a lease that ran out): gone.
      if (rows.length) await tx.delete(calendarPushChannels).where(inArray(calendarPushChannels.id, rows.map((r) => r.id)));
      const [inserted] = await tx
        .insert(calendarPushChannels)
        .values({
          id: newId("pch"),
          connectionId,
          calendarId: calendar.id,
          provider: connection.provider as OAuthProviderId,
          channelId: `${PENDING}${randomUUID()}`,
          secretHash: pushSecretHash(secret),
          expiresAt: new Date(now + LEASE_MS),
          createdAt: new Date(now),
        })
        .returning();
      return inserted;
    });
    if (!placeholder) continue;
    try {
      push ??= pushOf(db, connection);
      const subscription = await push.subscribe(calendar.externalId, {
        address: calendarHookUrl(connection.provider as OAuthProviderId),
        secret,
        expiresAt: now + push.maxLifetimeMs,
      });
      await db
        .update(calendarPushChannels)
        .set({ channelId: subscription.channelId, resourceId: subscription.resourceId, expiresAt: new Date(subscription.expiresAt) })
        .where(eq(calendarPushChannels.id, placeholder.id));
      created += 1;
    } catch (error) {
      await db.delete(calendarPushChannels).where(eq(calendarPushChannels.id, placeholder.id));
      logFailure(error, "calendar push: could not create a channel (polling still keeps the calendar in sync)", { connectionId, provider: connection.provider });
      // A refused grant fails every calendar alike: the sync loop marks the connection.
      if (error instanceof CalendarError && error.kind === "auth") break;
    }
  }
  return created;
}

/**
 * Takes up to `limit` channels expiring within PUSH_RENEW_MARGIN_MS, moving their recorded
 * expiry on by LEASE_MS in the same statement: a lease (SKIP LOCKED keeps two instances off one
 * row). The margin is hours, the lease minutes, so a lease that runs out still leaves time.
 */
async function claimExpiring(db: Db, now: number, limit: number, exclude: Set<string>): Promise<CalendarPushChannelRow[]> {
  const live = db.select({ id: calendarConnections.id }).from(calendarConnections).where(ne(calendarConnections.status, "reauth_required"));
  const due = db
    .select({ id: calendarPushChannels.id })
    .from(calendarPushChannels)
    .where(
      and(
        lte(calendarPushChannels.expiresAt, new Date(now + PUSH_RENEW_MARGIN_MS)),
        notLike(calendarPushChannels.channelId, `${PENDING}%`),
        // Not one made in this very round (a renewal's replacement).
        lt(calendarPushChannels.createdAt, new Date(now)),
        inArray(calendarPushChannels.connectionId, live),
        exclude.size ? notInArray(calendarPushChannels.id, [...exclude]) : undefined,
      ),
    )
    .orderBy(asc(calendarPushChannels.expiresAt))
    .limit(limit)
    .for("update", { skipLocked: true });
  return db
    .update(calendarPushChannels)
    .set({ expiresAt: sql`${calendarPushChannels.expiresAt} + ${`${LEASE_MS / 1000} seconds`}::interval` })
    .where(inArray(calendarPushChannels.id, due))
    .returning();
}

/** Renews one claimed channel: Graph extends it in place; for Google a new channel replaces it. */
async function renewOne(db: Db, row: CalendarPushChannelRow, now: number): Promise<boolean> {
  const expiresAt = row.expiresAt.getTime() - LEASE_MS;
  const [found] = await db
    .select({ connection: calendarConnections, externalId: calendars.externalId })
    .from(calendars)
    .innerJoin(calendarConnections, eq(calendarConnections.id, calendars.connectionId))
    .where(eq(calendars.id, row.calendarId))
    .limit(1);
  if (!found) return false;
  const { connection } = found;
  if (!pushAvailable(connection.provider)) {
    // APP_URL is no longer https, push was turned off or the provider unconfigured: the channel goes.
    await stopAndForget(db, connection, [row]);
    return false;
  }
  try {
    const push = pushOf(db, connection);
    if (push.renew) {
      const renewed = await push.renew({ channelId: row.channelId, resourceId: row.resourceId, expiresAt }, now + push.maxLifetimeMs);
      await db.update(calendarPushChannels).set({ expiresAt: new Date(renewed.expiresAt) }).where(eq(calendarPushChannels.id, row.id));
      return true;
    }
    const secret = randomBytes(32).toString("base64url");
    const fresh = await push.subscribe(found.externalId, { address: calendarHookUrl(connection.provider), secret, expiresAt: now + push.maxLifetimeMs });
    // The new channel is recorded before the old one is stopped: no change goes unheard between them.
    await db.insert(calendarPushChannels).values({
      id: newId("pch"),
      connectionId: connection.id,
      calendarId: row.calendarId,
      provider: row.provider,
      channelId: fresh.channelId,
      resourceId: fresh.resourceId,
      secretHash: pushSecretHash(secret),
      expiresAt: new Date(fresh.expiresAt),
      createdAt: new Date(now),
    });
    await db.delete(calendarPushChannels).where(eq(calendarPushChannels.id, row.id));
    await stopAtProvider(push, row);
    return true;
  } catch (error) {
    if ((error instanceof CalendarError && error.kind === "not_found") || expiresAt <= now) {
      // Gone at the provider (or expired while it failed): forgotten here; a new one is made for it.
      await db.delete(calendarPushChannels).where(eq(calendarPushChannels.id, row.id));
    }
    logFailure(error, "calendar push: could not renew a channel (tried again later)", { connectionId: connection.id, provider: row.provider });
    return false;
  }
}

/** Renews every channel that expires within the margin at `now`; returns how many were renewed. */
export async function renewExpiringPushChannels(db: Db, now: number = Date.now(), batch = 10): Promise<number> {
  let renewed = 0;
  // A channel is renewed at most once a round, even if the provider granted less than the margin.
  const seen = new Set<string>();
  for (;;) {
    const claimed = await claimExpiring(db, now, batch, seen);
    if (claimed.length === 0) return renewed;
    for (const row of claimed) {
      seen.add(row.id);
      if (await renewOne(db, row, now)) renewed += 1;
    }
  }
}

/**
 * Creates the channels that are missing: connections made before push existed or while APP_URL
 * was http, calendars whose conflict checks were turned on since, channels that could not be
 * made or renewed. Up to `limit` connections a round; returns how many channels it created.
 */
export async function createMissingPushChannels(db: Db, now: number = Date.now(), limit = 20): Promise<number> {
  const providers = (["provider_a", "provider_b"] as const).filter((p) => pushAvailable(p));
  if (providers.length === 0) return 0;
  const live = db
    .select({ calendarId: calendarPushChannels.calendarId })
    .from(calendarPushChannels)
    .where(gt(calendarPushChannels.expiresAt, new Date(now)));
  const rows = await db
    .selectDistinct({ connectionId: calendars.connectionId })
    .from(calendars)
    .innerJoin(calendarConnections, eq(calendarConnections.id, calendars.connectionId))
    .where(
      and(
        eq(calendars.checkConflicts, true),
        inArray(calendarConnections.provider, providers),
        ne(calendarConnections.status, "reauth_required"),
        notInArray(calendars.id, live),
      ),
    )
    .limit(limit);
  let created = 0;
  for (const { connectionId } of rows) created += await ensurePushChannels(db, connectionId, now);
  return created;
}

/** Stops the channels at the provider (best effort: a failure is logged) and forgets them. */
async function stopAndForget(db: Db, connection: CalendarConnectionRow, rows: CalendarPushChannelRow[]): Promise<void> {
  try {
    const push = pushOf(db, connection);
    // At once: a provider that hangs costs one timeout, not one per calendar.
    await Promise.all(rows.map((row) => stopAtProvider(push, row)));
  } catch (error) {
    logFailure(error, "calendar push: cannot stop channels at the provider (they expire by themselves)", { connectionId: connection.id });
  }
  await db.delete(calendarPushChannels).where(inArray(calendarPushChannels.id, rows.map((r) => r.id)));
}

/** Before a connection goes: stops each of its channels at the provider (best effort: a failure is logged, never blocks). */
export async function stopPushChannels(db: Db, connectionId: string): Promise<void> {
  const rows = await db.select().from(calendarPushChannels).where(eq(calendarPushChannels.connectionId, connectionId));
  if (rows.length === 0) return;
  const [connection] = await db.select().from(calendarConnections).where(eq(calendarConnections.id, connectionId)).limit(1);
  if (connection) await stopAndForget(db, connection, rows);
}
