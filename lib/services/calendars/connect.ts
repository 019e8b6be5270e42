import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { calendarConnections, calendars, type UserRow } from "@/db/schema";
import {
  CalendarError,
  sealAccessToken,
  sealCredentials,
  type AccessToken,
  type CalDavCredentials,
  type CalendarProviderId,
  type ExternalCalendar,
  type OAuthCredentials,
} from "@/lib/calendars";
import { ServerAddressRefused, caldavAddressGuard } from "@/lib/calendars/caldav/address";
import { getConfig } from "@/lib/config";
import { AppError, validationError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { ConnectCalDavBody } from "@/lib/schemas/calendar";
import { lockName } from "@/lib/store/locks";
import { targetUrlProblem } from "@/lib/net/address-policy";
import { loadConnections, type ConnectionWithCalendars } from "./store";
import { syncConnection } from "./sync";

export const MAX_CONNECTIONS_PER_HOST = 10;

export type NewConnection = {
  provider: CalendarProviderId;
  email: string;
  credentials: OAuthCredentials | CalDavCredentials;
  access?: AccessToken;
  calendars: ExternalCalendar[];
};

/**
 * Stores a verified connection (credentials sealed) with its calendars, then reads its busy
 * time once so it counts at once. Connecting an account the host already has renews that
 * connection (new credentials, status connected) instead of adding a second. After connect
 * every calendar checks conflicts; the account's primary calendar becomes the write target if
 * the host has none (decisions §9).
 */
export async function saveConnection(db: Db, host: UserRow, input: NewConnection, now: number = Date.now()): Promise<ConnectionWithCalendars> {
  const email = input.email.toLowerCase();
  const connectionId = await db.transaction(async (tx) => {
    await lockName(tx, `calendar-connections:${host.id}`);
    const owned = await tx
      .select({ id: calendarConnections.id, provider: calendarConnections.provider, email: calendarConnections.email })
      .from(calendarConnections)
      .where(eq(calendarConnections.userId, host.id));
    const existing = owned.find((c) => c.provider === input.provider && c.email === email);
    const sealed = {
      credentialsEncrypted: sealCredentials(input.credentials),
      accessTokenEncrypted: input.access ? sealAccessToken(input.access) : null,
      accessTokenExpiresAt: input.access ? new Date(input.access.expiresAt) : null,
      status: "connected" as const,
      lastError: null,
      syncDueAt: new Date(now),
    };
    let id: string;
    if (existing) {
      id = existing.id;
      await tx.update(calendarConnections).set(sealed).where(eq(calendarConnections.id, id));
    } else {
      if (owned.length >= MAX_CONNECTIONS_PER_HOST) {
        throw new AppError("conflict", `At most ${MAX_CONNECTIONS_PER_HOST} calendar accounts per host; disconnect one first`);
      }
      id = newId("cal");
      await tx.insert(calendarConnections).values({ id, userId: host.id, provider: input.provider, email, createdAt: new Date(now), ...sealed });
    }
    const known = await tx.select({ externalId: calendars.externalId }).from(calendars).where(eq(calendars.connectionId, id));
    const knownIds = new Set(known.map((k) => k.externalId));
    const fresh = input.calendars.filter((c) => !knownIds.has(c.externalId));
    if (fresh.length) {
      await tx
        .insert(calendars)
        .values(
          fresh.map((c) => ({ id: newId("cld"), connectionId: id, userId: host.id, externalId: c.externalId, name: c.name, isPrimary: c.isPrimary, readOnly: !c.writable })),
        );
    }
    const [target] = await tx
      .select({ id: calendars.id })
      .from(calendars)
      .where(and(eq(calendars.userId, host.id), eq(calendars.writeTarget, true)))
      .limit(1);
    const primary = input.calendars.find((c) => c.isPrimary && c.writable) ?? input.calendars.find((c) => c.writable);
    if (!target && primary) {
      await tx
        .update(calendars)
        .set({ writeTarget: true })
        .where(and(eq(calendars.connectionId, id), inArray(calendars.externalId, [primary.externalId])));
    }
    return id;
  });
  await syncConnection(db, connectionId, now);
  const [saved] = await loadConnections(db, host.id, [connectionId]);
  return saved!;
}

/** Turns a provider failure met while connecting into the API's answer. Nothing was stored. */
export function connectFailure(error: unknown, provider: string): unknown {
  if (!(error instanceof CalendarError)) return error;
  if (error instanceof ServerAddressRefused) {
    return validationError([{ path: "serverUrl", message: "Must be a server on the public internet (this address, or one it redirects to, is private or loopback)" }], "The CalDAV server's address is not allowed");
  }
  if (error.kind === "auth") {
    return new AppError("validation_error", "The calendar server refused these credentials", {
      issues: [{ path: "appSpecificPassword", message: "Wrong account or app-specific password" }],
    });
  }
  if (error.kind === "unavailable" || error.kind === "rate_limited") {
    return new AppError("provider_unavailable", `The calendar provider (${provider}) could not be reached; try again shortly`);
  }
  return new AppError("validation_error", `The calendar provider refused the connection: ${error.message}`, { issues: [] });
}

/**
 * What is wrong with a host-given CalDAV server address before anything is asked of it: https
 * only (the password goes with every request) and no literal private address or local name,
 * unless CALDAV_ALLOW_PRIVATE=1. Names are resolved and checked at every connection
 * (lib/calendars/caldav/fetch.ts), redirects included.
 */
function serverUrlProblem(serverUrl: string): string | undefined {
  if (!caldavAddressGuard(serverUrl)) return undefined;
  const url = new URL(serverUrl);
  if (url.protocol !== "https:") return "Must be an https:// address (the password is sent with every request)";
  return targetUrlProblem(serverUrl, false);
}

/** POST /me/calendar-connections/provider_c: the login is checked with the server before anything is stored. */
export async function connectCalDav(db: Db, host: UserRow, body: z.output<typeof ConnectCalDavBody>, now: number = Date.now()): Promise<ConnectionWithCalendars> {
  const credentials: CalDavCredentials = {
    username: body.providerAccountId,
    password: body.appSpecificPassword,
    serverUrl: body.serverUrl ?? getConfig().caldavServerUrl,
  };
  const problem = serverUrlProblem(credentials.serverUrl);
  if (problem) throw validationError([{ path: "serverUrl", message: problem }], "The CalDAV server's address is not allowed");
  let listed: ExternalCalendar[];
  try {
    // The CalDAV client (tsdav, ical.js, undici) is loaded by the first connection, not at start.
    listed = await (await import("@/lib/calendars/caldav")).verifyCalDavCredentials(credentials);
  } catch (error) {
    throw connectFailure(error, "provider_c");
  }
  return saveConnection(db, host, { provider: "provider_c", email: body.providerAccountId, credentials, calendars: listed }, now);
}
