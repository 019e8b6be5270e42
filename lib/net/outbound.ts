import "server-only";
import { lookup as dnsLookup } from "node:dns/promises";
import type { LookupFunction } from "node:net";
import { ipLiteralOf, isPublicAddress } from "./address-policy";

// Connections to addresses someone else chose (a host's webhook URL, a host's CalDAV server):
// the name is resolved once, every address it resolves to is checked against the address
// policy, and the socket goes to the address that was checked, so a DNS answer that changes
// between the check and the connect (DNS rebinding) cannot send the request elsewhere.

export type ResolvedAddress = { address: string; family: number };
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const defaultResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export type AddressGuard = {
  allowPrivate: boolean;
  resolve?: Resolver;
  /**
   * Tests only: `address:port` pairs that stand in for servers on the public internet (every
   * test server listens on loopback). Nothing in the service sets it.
   */
  publicStandIns?: ReadonlySet<string>;
};

/**
 * A connection the address policy refused. The message names the host, never the address it
 * resolved to, and reads the same whether the name resolves to a private address or to none:
 * otherwise a delivery log would tell a host which names exist inside the service's network.
 */
export class AddressRefusedError extends Error {
  constructor(readonly hostname: string) {
    super(`Refused: ${hostname} does not resolve to a public address`);
    this.name = "AddressRefusedError";
  }
}

/**
 * The address to connect to for `hostname`, checked: an IP literal as it is, a name resolved and
 * refused when any of its addresses is not public (unless private targets are allowed).
 */
export async function resolveChecked(hostname: string, guard: AddressGuard, port?: number): Promise<ResolvedAddress> {
  const literal = ipLiteralOf(hostname);
  const resolve = guard.resolve ?? defaultResolver;
  let addresses: ResolvedAddress[];
  if (literal) addresses = [{ address: literal, family: literal.includes(":") ? 6 : 4 }];
  else if (guard.allowPrivate) addresses = await resolve(hostname);
  else {
    // A name that does not resolve (ENOTFOUND, no data) is refused in the words of a private
    // one: the two must not be told apart from outside (a probe of the internal DNS).
    addresses = await resolve(hostname).catch(() => []);
    if (addresses.length === 0) throw new AddressRefusedError(hostname);
  }
  if (addresses.length === 0) throw new Error(`${hostname} does not resolve`);
  if (!guard.allowPrivate) {
    const permitted = (address: string) => isPublicAddress(address) || guard.publicStandIns?.has(`${address}:${port}`) === true;
    // Which private address a name resolves to is itself something an outsider may not learn.
    if (addresses.some((a) => !permitted(a.address))) throw new AddressRefusedError(hostname);
  }
  return addresses[0]!;
}

/** A `lookup` for net/tls.connect that answers with the one address already checked. */
export function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    // net.connect asks for every address when it may try several families (autoSelectFamily).
    if (options.all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
}

