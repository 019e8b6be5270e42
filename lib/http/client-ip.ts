import { getConfig } from "@/lib/config";

/**
 * The client's IP address for per-IP rate limits. `server.mjs` (what `npm start` runs) writes
 * the socket's address into `x-client-ip`, replacing anything a client sent, and with
 * TRUST_PROXY the address the nearest proxy appended last to X-Forwarded-For. A request that
 * reached the handlers some other way (tests, `next dev`) falls back to X-Forwarded-For's last entry.
 */
export function clientIp(req: Request): string {
  const fromServer = req.headers.get("x-client-ip");
  if (fromServer) return fromServer;
  const forwarded = req.headers.get("x-forwarded-for");
  const last = forwarded?.split(",").map((s) => s.trim()).filter(Boolean).at(-1);
  return last ?? (getConfig().trustProxy ? "unknown-proxy-client" : "unknown");
}
