import "server-only";
import { Agent, buildConnector, type Dispatcher } from "undici";
import { resolveChecked, type AddressGuard } from "./outbound";

// Apart from lib/net/outbound.ts so that undici is loaded only by what uses it (the CalDAV
// client, itself loaded at its first call), not by every module that checks an address.

/**
 * An undici dispatcher whose every new connection, redirects included, goes through
 * resolveChecked and then to the checked address. TLS still verifies the certificate against
 * the host name (SNI comes from the request's host, not from the address).
 */
export function guardedDispatcher(guard: AddressGuard, options: { connectTimeoutMs?: number } = {}): Dispatcher {
  const connect = buildConnector({ timeout: options.connectTimeoutMs });
  return new Agent({
    // Short-lived: a client is made per sync or write, and an idle socket should not outlive it long.
    keepAliveTimeout: 1_000,
    connect: (opts, callback) => {
      const port = Number(opts.port) || (opts.protocol === "https:" ? 443 : 80);
      resolveChecked(opts.hostname, guard, port).then(
        (target) => connect({ ...opts, hostname: target.address }, callback),
        (error: Error) => callback(error, null),
      );
    },
  });
}
