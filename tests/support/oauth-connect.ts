import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { getConfig, parseConfig } from "@/lib/config";
import { api, site } from "./api";
import type { TestHost } from "./factories";
import { configure } from "./jobs";

// Connecting a host's Google or Microsoft calendar the way a browser does (authorize → the
// provider's consent → our callback), against the local fakes; for tests of what comes after.

/** Points the service's provider settings at the fakes for this test (`extra`: more variables). */
export function useOAuthFakes(env: Record<string, string>, extra: Record<string, string> = {}) {
  const parsed = parseConfig({ NODE_ENV: "test", DATA_DIR: getConfig().dataDir, JWT_SECRET: "x".repeat(32), ENCRYPTION_KEY: randomBytes(32).toString("base64"), ...env, ...extra });
  configure({
    google: parsed.google,
    googleEndpoints: parsed.googleEndpoints,
    microsoft: parsed.microsoft,
    microsoftEndpoints: parsed.microsoftEndpoints,
    calendarTimeoutMs: parsed.calendarTimeoutMs,
  });
}

/** The whole round trip; returns the connection as the API shows it. */
export async function connectThroughOAuth(host: TestHost, provider: "provider_a" | "provider_b", consent: (url: string) => Promise<string>) {
  const started = await api.get(`/me/calendar-connections/oauth/${provider}/authorize`, { token: host.token });
  expect(started.status, JSON.stringify(started.body)).toBe(302);
  const cookie = started.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
  const back = new URL(await consent(started.headers.get("location")!));
  const done = await site.get(`${back.pathname}${back.search}`, { headers: { cookie } });
  expect(done.status).toBe(302);
  const list = await api.get("/me/calendar-connections", { token: host.token });
  const connection = (list.body.data as any[]).find((c) => c.provider === provider);
  expect(connection).toMatchObject({ status: "connected" });
  return connection;
}
