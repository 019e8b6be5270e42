import "server-only";
import ipaddr from "ipaddr.js";

// Where the service may send a request to an address someone else chose (server-side request
// forgery): a host's webhook URL, a host's CalDAV server. Only public unicast addresses, unless
// the caller allows private ones (WEBHOOKS_ALLOW_PRIVATE=1, CALDAV_ALLOW_PRIVATE=1). ipaddr.js classifies against the IANA special-purpose
// registries: loopback, private (10/8, 172.16/12, 192.168/16), link-local (169.254/16 with the
// cloud metadata address, fe80::/10), unique-local fc00::/7, CGNAT 100.64/10, unspecified,
// multicast, broadcast, documentation and reserved ranges, and IPv6 forms that carry an IPv4
// address (NAT64 64:ff9b::/96, 6to4, Teredo). An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is
// judged as the IPv4 address it is. The deprecated IPv4-compatible block ::/96 (RFC 4291 §2.5.5.1:
// `::a9fe:a9fe`, `::127.0.0.1`) is refused whole: ipaddr.js calls it unicast, yet some stacks still
// route it to the IPv4 address inside, and nothing public lives there.

/** True only for an address on the public internet. Not an IP address at all: false. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // ipaddr.js reads `::8.8.8.8` as if it were `::ffff:8.8.8.8`; the WHATWG parser writes it out
  // as the hex it is (`::808:808`), which is what a socket would connect to.
  const parsed = ipaddr.parse(address.includes(":") && address.includes(".") ? new URL(`http://[${address}]/`).hostname.slice(1, -1) : address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) return false;
  return ipaddr.process(address).range() === "unicast";
}

/** The URL's host as an IP address, if it is one ([::1] without its brackets). */
export function ipLiteralOf(hostname: string): string | undefined {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : undefined;
}

/**
 * What is wrong with a URL the service is to send requests to (a webhook's, a CalDAV server's), or
 * undefined when it may be saved. Host names are not
 * resolved here (DNS can change after saving): delivery checks the address it connects to.
 * Names that can only mean this machine or a local network are refused at once.
 */
export function targetUrlProblem(raw: string, allowPrivate: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "Must be an absolute URL, e.g. https://example.com/webhooks";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "Must be an http:// or https:// URL (https is recommended)";
  if (url.username || url.password) return "Must not contain a user name or password";
  if (url.hash) return "Must not contain a #fragment";
  if (allowPrivate) return undefined;
  // The WHATWG parser has already turned 0x7f.1, 2130706433 and the like into 127.0.0.1.
  const ip = ipLiteralOf(url.hostname);
  if (ip !== undefined) {
    return isPublicAddress(ip) ? undefined : "Must not point at a private, loopback or otherwise non-public address";
  }
  const host = url.hostname.replace(/\.$/, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return "Must not point at this machine (localhost)";
  if (!host.includes(".")) return "Must name a public host (a single-label name only resolves on a local network)";
  return undefined;
}
