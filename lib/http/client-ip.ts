import "server-only";
import { getConfig } from "@/lib/config";

/**
 * The client's address, for per-IP rate limits. `server.mjs` (what `npm start` runs) writes the
 * socket's address into `x-client-ip`, replacing anything a client sent. With TRUST_PROXY the
 * socket is the proxy, and the client is the address that proxy appended last to
 * X-Forwarded-For (earlier entries are the client's own claims). Requests that reach the
 * handlers without server.mjs (tests, `next dev`) fall back to X-Forwarded-For.
 */
export function clientIp(req: { headers: Headers }): string {
  const forwarded = req.headers.get("x-forwarded-for");
  const lastForwarded = forwarded?.split(",").map((s) => s.trim()).filter(Boolean).at(-1);
  const socket = req.headers.get("x-client-ip");
  if (getConfig().trustProxy) return lastForwarded ?? socket ?? "unknown";
  return socket ?? lastForwarded ?? "unknown";
}
