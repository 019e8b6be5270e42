import { createHash, randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { routeModules } from "@/app/api/v1/routes";
import { apiKeys, passwordResets } from "@/db/schema";
import { getConfig } from "@/lib/config";
import { HTTP_METHODS, type RouteHandler } from "@/lib/http/route";
import { ROUTE_SCOPES, routeAccess } from "@/lib/http/scopes";
import { log } from "@/lib/log";
import { API_SCOPES, scopesAllow, type ApiScope } from "@/lib/schemas/api-key";
import { getDb } from "@/lib/store/database";
import { api, call } from "../support/api";
import { clientHeaders } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createHost, type TestHost } from "../support/factories";
import { configure } from "../support/jobs";

// API keys (decisions §18): made with scopes, shown once, stored hashed, checked by the route
// wrapper against one table of route → scope, limited per key, revoked at once.

withTestDatabase();

const original = { apiKeyLimit: getConfig().apiKeyLimit, addressLimits: getConfig().addressLimits };
afterEach(() => configure(original));

type MadeKey = { id: string; key: string; prefix: string; scopes: string[] };

async function makeKey(host: TestHost, scopes: readonly string[], extra: Record<string, unknown> = {}): Promise<MadeKey> {
  const res = await api.post("/me/api-keys", { name: "Test integration", scopes, ...extra }, { token: host.token });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Every route that acts for a host, as `METHOD path` with its handler. */
function hostRoutes(): { method: string; path: string }[] {
  const out: { method: string; path: string }[] = [];
  for (const routes of routeModules) {
    for (const method of HTTP_METHODS) {
      const handler = routes[method] as RouteHandler;
      if (handler.spec?.auth === "host" && handler.mount) out.push({ method, path: handler.mount.path });
    }
  }
  return out;
}

/** The path below /api/v1 with every {param} filled by something that names nothing. */
const concrete = (path: string) => path.replace(/^\/api\/v1/, "").replace(/\{(\w+)\}/g, (_, name: string) => (name === "provider" ? "provider_a" : name === "email" ? "nobody@example.com" : "nothing_here"));

describe("making, listing and revoking keys (/me/api-keys)", () => {
  it("shows the key once, lists it without the key, and a revoked key answers 401 at once", async () => {
    const host = await createHost();
    const made = await makeKey(host, ["bookings:read"], { expiresInDays: 30 });
    expect(made.key).toMatch(/^bk_[A-Za-z0-9_-]{43}$/);
    expect(made.prefix).toBe(made.key.slice(0, 8));
    expect(made.id).toMatch(/^key_/);
    expect(Date.parse((made as unknown as { expiresAt: string }).expiresAt) - Date.now()).toBeGreaterThan(29.9 * 86_400_000);

    const listed = await api.get("/me/api-keys", { token: host.token });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toEqual({ id: made.id, name: "Test integration", scopes: ["bookings:read"], prefix: made.prefix, createdAt: expect.any(String), expiresAt: expect.any(String), lastUsedAt: null });
    expect(JSON.stringify(listed.body)).not.toContain(made.key);

    const used = await api.get("/me/bookings", { token: made.key });
    expect(used.status).toBe(200);
    const [row] = await (await getDb()).select().from(apiKeys).where(eq(apiKeys.id, made.id));
    expect(row!.lastUsedAt).not.toBeNull();

    // Another host cannot see or revoke it.
    const other = await createHost();
    expect((await api.get("/me/api-keys", { token: other.token })).body.data).toEqual([]);
    expect((await api.delete(`/me/api-keys/${made.id}`, { token: other.token })).status).toBe(404);
    expect((await api.get("/me/bookings", { token: made.key })).status).toBe(200);

    expect((await api.delete(`/me/api-keys/${made.id}`, { token: host.token })).status).toBe(204);
    const refused = await api.get("/me/bookings", { token: made.key });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe("unauthorized");
    expect((await api.delete(`/me/api-keys/${made.id}`, { token: host.token })).status).toBe(404);
  });

  it("refuses bad input with the field named, and changes nothing", async () => {
    const host = await createHost();
    const cases: [unknown, string][] = [
      [{ name: "x", scopes: ["bookings:read", "bookings:delete"] }, "scopes.1"],
      [{ name: "x", scopes: [] }, "scopes"],
      [{ name: "x", scopes: ["bookings:read", "bookings:read"] }, "scopes.1"],
      [{ name: "", scopes: ["bookings:read"] }, "name"],
      [{ name: "x".repeat(101), scopes: ["bookings:read"] }, "name"],
      [{ name: "x", scopes: ["bookings:read"], expiresInDays: 0 }, "expiresInDays"],
      [{ name: "x", scopes: ["bookings:read"], expiresInDays: 731 }, "expiresInDays"],
      [{ name: "x", scopes: ["bookings:read"], key: "bk_chosen" }, "key"],
    ];
    for (const [body, path] of cases) {
      const res = await api.post("/me/api-keys", body, { token: host.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details.issues.map((i: { path: string }) => i.path)).toContain(path);
    }
    expect((await api.get("/me/api-keys", { token: host.token })).body.data).toEqual([]);
  });

  it("stops an expired key with words that say so", async () => {
    const host = await createHost();
    const made = await makeKey(host, ["profile:read"], { expiresInDays: 1 });
    expect((await api.get("/me", { token: made.key })).status).toBe(200);
    await (await getDb()).update(apiKeys).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(apiKeys.id, made.id));
    const res = await api.get("/me", { token: made.key });
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/expired/);
  });
});

describe("scopes, from the one route table", () => {
  it("names every route that acts for a host, and nothing else", () => {
    const routes = hostRoutes().map((r) => `${r.method} ${r.path}`).sort();
    expect(Object.keys(ROUTE_SCOPES).sort()).toEqual(routes);
  });

  it("a key with every scope but one gets 403 exactly where that one is needed, naming it", async () => {
    const host = await createHost();
    const routes = hostRoutes().filter((r) => routeAccess(r.method, r.path) !== "person");
    for (const missing of API_SCOPES) {
      // Without a read, also without its write (a write includes the read).
      const scopes = API_SCOPES.filter((s) => s !== missing && !(missing.endsWith(":read") && s === missing.replace(":read", ":write")));
      const { key } = await makeKey(host, scopes);
      for (const { method, path } of routes) {
        const needed = routeAccess(method, path) as ApiScope;
        const res = await call(method as never, concrete(path), { token: key, body: method === "GET" || method === "DELETE" ? undefined : {} });
        const where = `${method} ${path} with all but ${missing}`;
        if (scopesAllow(scopes, needed)) {
          expect(res.status, where).not.toBe(403);
          expect(res.status, where).not.toBe(401);
        } else {
          expect(res.status, where).toBe(403);
          expect(res.body.error, where).toBe("forbidden");
          expect(res.body.details.requiredScope, where).toBe(needed);
        }
      }
    }
  });

  it("a write scope includes the read of the same resource, and nothing else", async () => {
    const host = await createHost();
    const { key } = await makeKey(host, ["bookings:write"]);
    expect((await api.get("/me/bookings", { token: key })).status).toBe(200);
    const other = await api.get("/me/event-types", { token: key });
    expect(other.status).toBe(403);
    expect(other.body.details.requiredScope).toBe("event-types:read");
  });

  it("never lets a key manage keys, the password, the email, the username or calendar credentials", async () => {
    const host = await createHost();
    const { key } = await makeKey(host, API_SCOPES);
    const person = Object.entries(ROUTE_SCOPES).filter(([, access]) => access === "person");
    expect(person.length).toBeGreaterThanOrEqual(10);
    for (const [route] of person) {
      const [method, path] = route.split(" ") as [string, string];
      const res = await call(method as never, concrete(path), { token: key, body: method === "GET" || method === "DELETE" ? undefined : { username: "taken-over", password: "x", newPassword: "another password 1", name: "mine", scopes: ["bookings:read"] } });
      expect(res.status, route).toBe(403);
      expect(res.body.details.requiredScope, route).toBeNull();
    }
    // Nothing changed: no new key, the same username.
    expect((await api.get("/me/api-keys", { token: host.token })).body.data).toHaveLength(1);
    expect((await api.get("/me", { token: host.token })).body.username).toBe(host.username);
  });
});

describe("keys and the account's credentials", () => {
  it("a password reset by email revokes every key; a sign-out and a password change do not", async () => {
    const host = await createHost();
    const { key } = await makeKey(host, ["profile:read"]);
    expect((await api.post("/auth/logout", undefined, { token: host.token })).status).toBe(204);
    expect((await api.get("/me", { token: key })).status).toBe(200);

    const login = await api.post("/auth/login", { email: host.email, password: host.password }, { headers: clientHeaders() });
    const changed = await api.post("/me/password", { currentPassword: host.password, newPassword: "a brand new password" }, { token: login.body.accessToken, headers: clientHeaders() });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await api.get("/me", { token: key })).status).toBe(200);

    const token = randomBytes(32).toString("base64url");
    const tokenHash = createHash("sha256").update(token).digest("base64url");
    await (await getDb()).insert(passwordResets).values({ id: `pwr_${randomBytes(8).toString("hex")}`, userId: host.id, tokenHash, expiresAt: new Date(Date.now() + 3_600_000) });
    const reset = await api.post("/auth/password-reset/confirm", { token, newPassword: "taken back password" }, { headers: clientHeaders() });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect((await api.get("/me", { token: key })).status).toBe(401);
    expect((await api.get("/me/api-keys", { token: (await api.post("/auth/login", { email: host.email, password: "taken back password" }, { headers: clientHeaders() })).body.accessToken })).body.data).toEqual([]);
  });

  it("keeps the key out of every table and every log line: only its hash is stored", async () => {
    const lines: string[] = [];
    const level = log.level;
    log.level = "debug";
    for (const method of ["debug", "info", "warn", "error"] as const) {
      vi.spyOn(log, method).mockImplementation(((...args: unknown[]) => void lines.push(JSON.stringify(args))) as never);
    }
    try {
      const host = await createHost();
      const made = await makeKey(host, ["bookings:read"]);
      await api.get("/me/bookings", { token: made.key });
      await api.get("/me/event-types", { token: made.key });
      await api.delete(`/me/api-keys/${made.id}`, { token: host.token });
      await api.get("/me/bookings", { token: made.key });
      const secret = made.key.slice(3);
      const db = await getDb();
      const tables = (await db.execute<{ table_name: string }>(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`)) as unknown as { table_name: string }[] | { rows: { table_name: string }[] };
      const names = (Array.isArray(tables) ? tables : tables.rows).map((t) => t.table_name);
      expect(names).toContain("api_keys");
      for (const name of names) {
        const rows = await db.execute(sql.raw(`select * from "${name}"`));
        expect(JSON.stringify(rows).includes(secret), `table ${name}`).toBe(false);
      }
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.join("\n").includes(secret)).toBe(false);
    } finally {
      vi.restoreAllMocks();
      log.level = level;
    }
  });
});

describe("limits a client can read (RateLimit-Policy, RateLimit)", () => {
  it("counts a key's requests per key: the numbers fall, a 429 says when to retry, and the window resets", async () => {
    configure({ apiKeyLimit: { limit: 3, windowSeconds: 2 } });
    const host = await createHost();
    const { key } = await makeKey(host, ["profile:read"]);
    const second = await makeKey(host, ["profile:read"]);
    // Start at the beginning of a window, so the three fit in it.
    await new Promise((r) => setTimeout(r, 2000 - (Date.now() % 2000) + 20));
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api.get("/me", { token: key });
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe('"default";q=3;w=2');
      seen.push(res.headers.get("ratelimit")!.replace(/;t=\d+$/, ""));
    }
    expect(seen).toEqual(['"default";r=2', '"default";r=1', '"default";r=0']);
    const over = await api.get("/me", { token: key });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(over.headers.get("ratelimit")).toMatch(/^"default";r=0;t=\d+$/);
    // Another key of the same host has its own count.
    expect((await api.get("/me", { token: second.key })).headers.get("ratelimit")).toMatch(/^"default";r=2;/);
    await new Promise((r) => setTimeout(r, 2000 - (Date.now() % 2000) + 20));
    const fresh = await api.get("/me", { token: key });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("ratelimit")).toMatch(/^"default";r=2;t=\d+$/);
  });

  it("puts them on every answer: a person's, a public route's, a named limit's, a 404's", async () => {
    const host = await createHost();
    const person = await api.get("/me", { token: host.token });
    expect(person.headers.get("ratelimit-policy")).toBe('"default";q=300;w=60');
    expect(person.headers.get("ratelimit")).toMatch(/^"default";r=\d+;t=\d+$/);
    const from = clientHeaders();
    const publicEvent = await api.get(`/public/${host.username}/nothing-here`, { headers: from });
    expect(publicEvent.status).toBe(404);
    expect(publicEvent.headers.get("ratelimit-policy")).toBe('"default";q=600;w=60');
    const again = await api.get(`/public/${host.username}/nothing-here`, { headers: from });
    const remaining = (res: typeof again) => Number(/r=(\d+)/.exec(res.headers.get("ratelimit")!)![1]);
    expect(remaining(again)).toBe(remaining(publicEvent) - 1);
    const slots = await api.get(`/public/${host.username}/nothing-here/slots?from=2030-01-01&to=2030-01-02&timezone=UTC`, { headers: from });
    expect(slots.headers.get("ratelimit-policy")).toBe('"slots";q=60;w=60');
    const nowhere = await api.get("/no/such/route", { headers: from });
    expect(nowhere.status).toBe(404);
    expect(nowhere.headers.get("ratelimit-policy")).toBe('"default";q=600;w=60');
    expect(nowhere.headers.get("x-ratelimit-limit")).toBe("600");
  });
});
