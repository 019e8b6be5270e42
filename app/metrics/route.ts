// GET /metrics – Prometheus metrics; off unless METRICS=1 or METRICS_TOKEN (then a bearer token is required)
import { timingSafeEqual } from "node:crypto";
import { getDb } from "@/lib/store/database";
import { getConfig } from "@/lib/config";
import { log } from "@/lib/log";
import { metricsText } from "@/lib/metrics";

export const dynamic = "force-dynamic";

function plain(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers } });
}

function tokenMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function GET(req: Request): Promise<Response> {
  const config = getConfig().metrics;
  if (!config.enabled) return plain(404, "Not found");
  if (config.token) {
    const given = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "")?.[1];
    if (!given || !tokenMatches(given, config.token)) return plain(401, "A bearer token is required", { "www-authenticate": 'Bearer realm="metrics"' });
  }
  try {
    const { contentType, body } = await metricsText(await getDb());
    return new Response(body, { status: 200, headers: { "content-type": contentType, "cache-control": "no-store" } });
  } catch (err) {
    log.warn({ err }, "metrics: could not read the outbox");
    return plain(503, "Metrics are unavailable: the database does not answer");
  }
}
