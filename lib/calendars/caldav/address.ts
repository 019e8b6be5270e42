import "server-only";
import { getConfig } from "@/lib/config";
import type { AddressGuard, Resolver } from "@/lib/net/outbound";
import { CalendarError } from "../types";

// Which CalDAV servers may be reached, apart from the client itself (the rest of this folder,
// loaded at its first call), so that checking an address at connect does not load tsdav, ical.js
// and undici. Import nothing here that does.

/** The server's address is not one this service may connect to (loopback, private, or a name resolving to one). */
export class ServerAddressRefused extends CalendarError {
  constructor(message: string) {
    super("rejected", message);
    this.name = "ServerAddressRefused";
  }
}

/** Tests only: the resolver and the loopback servers that stand in for public ones. */
export const caldavNetwork: { resolve?: Resolver; publicStandIns?: ReadonlySet<string> } = {};

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/**
 * How a client reaches its server: the operator's own CALDAV_SERVER_URL as it is (trusted, like
 * any setting); any other server through the address policy, unless CALDAV_ALLOW_PRIVATE=1.
 */
export function caldavAddressGuard(serverUrl: string): AddressGuard | undefined {
  const config = getConfig();
  if (config.caldavAllowPrivate || originOf(serverUrl) === originOf(config.caldavServerUrl)) return undefined;
  return { allowPrivate: false, resolve: caldavNetwork.resolve, publicStandIns: caldavNetwork.publicStandIns };
}
