import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { bookings, eventTypes } from "@/db/schema";
import { api, call, callSite } from "../support/api";
import { book, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, unique } from "../support/factories";

withTestDatabase();

describe("request parsing", () => {
  it("turns malformed JSON into 400 validation_error with details.issues", async () => {
    const res = await call("POST", "/auth/register", { rawBody: '{"email": "a@b.c",', headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "validation_error", message: expect.any(String), details: { issues: [expect.objectContaining({ path: "" })] } });
  });

  it("rejects a body that is not declared as JSON", async () => {
    const res = await call("POST", "/auth/login", { rawBody: "email=a@b.c", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("validation_error");
  });

  it("refuses a body over 1 MiB with 413 payload_too_large", async () => {
    const res = await call("POST", "/auth/register", {
      rawBody: JSON.stringify({ email: "a@b.co", padding: "x".repeat(1024 * 1024) }),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe("payload_too_large");
  });

  it("rejects JSON that is not an object", async () => {
    const res = await call("POST", "/auth/login", { rawBody: "[1,2]", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
  });

  it("refuses text PostgreSQL cannot store (NUL, an unpaired surrogate) in every kind of input with 400, and changes nothing", async () => {
    const host = await createHost();
    const et = await createEventType(host, { customQuestions: [{ id: "topic", label: "Topic", required: false }] });
    const date = dateIn(3, host.timezone);
    await openOnly(host, date);
    const [slot] = await getSlots(host, et.slug, date);
    const auth = { token: host.token };

    const NUL = "a\u0000b";
    const LONE_SURROGATE = "a\ud800b";
    for (const bad of [NUL, LONE_SURROGATE]) {
      const cases = [
        await api.post("/auth/login", { email: bad, password: "x" }),
        await api.post("/auth/login", { email: host.email, password: bad }),
        await api.post("/auth/register", { email: `${unique("r")}@example.com`, password: "long enough", fullName: bad, username: unique("u"), timezone: "UTC" }),
        await api.patch("/me", { fullName: bad }, auth),
        await api.post("/me/event-types", { slug: unique("s"), title: bad, durationMinutes: 30 }, auth),
        await api.patch(`/me/event-types/${et.id}`, { description: bad }, auth),
        await api.patch(`/me/event-types/${et.id}`, { location: bad }, auth),
        await api.patch(`/me/event-types/${et.id}`, { customQuestions: [{ id: "q", label: bad }] }, auth),
        await book(host, et.slug, slot!.startTime, { guestName: bad }),
        await book(host, et.slug, slot!.startTime, { customAnswers: { topic: bad } }),
        await book(host, et.slug, slot!.startTime, { customAnswers: { [bad]: "x" } }),
        await api.post("/public/cancel", { token: bad }),
        // URL-, email- and enum-typed fields: their formats alone once let NUL through (a 500).
        await api.patch("/me", { avatarUrl: `https://example.com/a${bad}b.png` }, auth),
        await api.post("/me/webhooks", { url: `https://example.com/h${bad}`, events: ["booking.created"] }, auth),
        await book(host, et.slug, slot!.startTime, { guestEmail: `a${bad}@example.com` }),
        await book(host, et.slug, slot!.startTime, { guestTimezone: `Europe/Berlin${bad}` }),
        // A lone surrogate cannot be written in a URL at all (encodeURIComponent refuses it).
        ...(bad === NUL
          ? [
              await api.post(`/me/bookings/${encodeURIComponent(bad)}/cancel`, { reason: "x" }, auth),
              await api.get(`/public/${encodeURIComponent(bad)}/${et.slug}`),
              await api.get(`/me/bookings?status=${encodeURIComponent(`confirmed${bad}`)}`, auth),
              await api.get(`/public/${host.username}/${et.slug}/slots?from=${date}&to=${date}&timezone=${encodeURIComponent(`UTC${bad}`)}`),
            ]
          : []),
      ];
      for (const res of cases) {
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body.error).toBe("validation_error");
      }
    }
    const [stored] = await (await getDb()).select().from(eventTypes).where(eq(eventTypes.id, et.id));
    expect(stored!.description).toBe("");
    expect(await (await getDb()).select().from(bookings).where(eq(bookings.hostId, host.id))).toHaveLength(0);
  });
});

describe("unknown paths and methods", () => {
  it("answers JSON 404 not_found for an unknown path under /api/v1", async () => {
    for (const p of ["/nope", "/me/event-types/evt_x/extra/segments"]) {
      const res = await api.get(p);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "not_found", message: expect.any(String), details: {} });
    }
  });

  it("answers JSON 405 method_not_allowed with an Allow header", async () => {
    const res = await api.delete("/auth/login");
    expect(res.status).toBe(405);
    expect(res.body.error).toBe("method_not_allowed");
    expect(res.headers.get("allow")).toBe("POST");
  });
});

describe("request ids", () => {
  it("returns X-Request-Id on every response, and a 500 never leaks internals", async () => {
    const ok = await api.get("/health");
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ status: "ok" });
    expect(ok.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const given = await api.get("/nope", { headers: { "x-request-id": "trace-123" } });
    expect(given.headers.get("x-request-id")).toBe("trace-123");
  });
});

describe("authenticated rate limit", () => {
  it("allows 300 requests a minute per host, then 429 with Retry-After; other hosts unaffected", async () => {
    // Fixed one-minute windows: all 301 requests of a host must fall inside one. Rather than wait
    // for a window to begin, the burst runs again, with a new host, if a window ended during it.
    const minute = () => Math.floor(Date.now() / 60_000);
    for (let attempt = 1; ; attempt++) {
      const host = await createHost();
      const other = await createHost();
      const started = minute();
      let last;
      for (let i = 1; i <= 300; i++) {
        last = await api.get("/me", { token: host.token });
        expect(last.status).toBe(200);
      }
      const limited = await api.get("/me", { token: host.token });
      if (minute() !== started) {
        expect(attempt, "a window ended during the burst twice: 301 requests took over a minute").toBe(1);
        continue;
      }
      expect(last!.headers.get("x-ratelimit-limit")).toBe("300");
      expect(last!.headers.get("x-ratelimit-remaining")).toBe("0");
      const reset = Number(last!.headers.get("x-ratelimit-reset"));
      expect(reset).toBeGreaterThanOrEqual(0);
      expect(reset).toBeLessThanOrEqual(60);

      expect(limited.status).toBe(429);
      expect(limited.body.error).toBe("rate_limited");
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");

      const fresh = await api.get("/me", { token: other.token });
      expect(fresh.status).toBe(200);
      expect(fresh.headers.get("x-ratelimit-remaining")).toBe("299");
      break;
    }
  });
});

describe("OpenAPI document", () => {
  function routeFiles(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) return routeFiles(full);
      return name === "route.ts" ? [full] : [];
    });
  }

  it("is OpenAPI 3.1 and lists every route under app/api/v1, app/api/calls and app/health with its full path", async () => {
    const res = await api.get("/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    expect(res.body.servers).toEqual([{ url: "http://booking.test" }]);
    const app = path.resolve("app");
    const documented = Object.keys(res.body.paths);
    for (const file of ["app/api/v1", "app/api/calls", "app/health"].flatMap((dir) => routeFiles(path.resolve(dir)))) {
      const rel = path.dirname(path.relative(app, file)).split(path.sep).join("/");
      if (rel.includes("[[...")) continue; // the JSON 404 catch-all
      const sitePath = `/${rel}`.replace(/\[(\w+)\]/g, "{$1}");
      // A segment may be mounted with a suffix: [token] as "{token}.ics".
      expect(
        documented.some((d) => d === sitePath || d.startsWith(`${sitePath}.`)),
        `${file} is missing from app/api/v1/routes.ts`,
      ).toBe(true);
    }
    const register = res.body.paths["/api/v1/auth/register"].post;
    expect(register.requestBody.content["application/json"].schema.required).toEqual(
      expect.arrayContaining(["email", "password", "fullName", "username", "timezone"]),
    );
    expect(res.body.paths["/api/v1/me/event-types/{eventTypeId}"].patch.parameters).toEqual([
      expect.objectContaining({ name: "eventTypeId", in: "path", required: true }),
    ]);
    expect(res.body.paths["/api/v1/me"].get.security).toEqual([{ bearer: [] }, { session: [] }, { apiKey: ["profile:read"] }]);
    expect(res.body.paths["/api/v1/me/api-keys"].post.security).toEqual([{ bearer: [] }, { session: [] }]);
    // The bookings list's search, from its route definition's query schema.
    expect(res.body.paths["/api/v1/me/bookings"].get.parameters).toContainEqual(
      expect.objectContaining({ name: "q", in: "query", required: false, schema: expect.objectContaining({ type: "string", maxLength: 200 }) }),
    );
  });
});

describe("authentication on every host route", () => {
  it("answers 401 unauthorized, before reading input, on every operation the document marks bearer", async () => {
    const doc = (await api.get("/openapi.json")).body;
    let checked = 0;
    for (const [template, operations] of Object.entries<Record<string, { security: unknown[] }>>(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        if (!op.security.some((s) => "bearer" in (s as object))) continue;
        const res = await callSite(method.toUpperCase() as "GET", template.replace(/\{\w+\}/g, "x"), method === "get" ? {} : { body: { bogus: true } });
        expect(res.status, `${method} ${template}`).toBe(401);
        expect(res.body.error).toBe("unauthorized");
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(6);
  });
});
