import "server-only";
import type { CalendarConnectionRow } from "@/db/schema";
import { getConfig } from "@/lib/config";
import { open } from "@/lib/secret-box";
import type { CalDavCredentials } from "./types";

// Kept apart from the provider clients (googleapis, tsdav): the connection DTO needs only this.

export const CREDENTIALS_PURPOSE = "calendar:credentials";
export const ACCESS_TOKEN_PURPOSE = "calendar:access-token";

/**
 * The host name of a CalDAV connection's server when the host named one (not the service's
 * CALDAV_SERVER_URL), so the dashboard can say which server it is rather than "Apple iCloud";
 * null for every other connection, or when the credentials no longer open.
 */
export function caldavServerHostOf(connection: CalendarConnectionRow): string | null {
  if (connection.provider !== "provider_c" || connection.credentialsEncrypted === null) return null;
  const plain = open(connection.credentialsEncrypted, CREDENTIALS_PURPOSE);
  if (plain === undefined) return null;
  try {
    const server = new URL((JSON.parse(plain) as CalDavCredentials).serverUrl);
    return server.origin === new URL(getConfig().caldavServerUrl).origin ? null : server.host;
  } catch {
    return null;
  }
}
