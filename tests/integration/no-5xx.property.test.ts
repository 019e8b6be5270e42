import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as openapi from "@/app/api/v1/openapi.json/route";
import { routeModules } from "@/app/api/v1/routes";
import { API_PREFIX, HTTP_METHODS, type HttpMethod, type RouteHandler } from "@/lib/http/route";
import { getConfig, setConfig } from "@/lib/config";
import { isValidTimeZone } from "@/lib/time/instants";
import { api, call } from "../support/api";
import { book, clientHeaders, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, unique } from "../support/factories";
import { fixturePool } from "../support/fuzz-fixture";
import { operations, SKIPPED } from "../support/route-baselines";
import { EDGE_DATES, EDGE_INSTANTS, EDGE_ZONES, hostileString, RawJson, toJsonText } from "../support/hostile";
import { applyMutation, expectNoServerError, mutations, schemaKeys, send, type Mutation } from "../support/route-fuzz";

// The API never answers 5xx, whatever it is sent: every route's real handler gets a valid
// request with hostile changes (one to three fields, unknown keys, whole bodies, raw queries,
// path parameters, headers), and must answer below 500, with a JSON error body on 4xx.
// Routes are found by walking routeModules, so a new route fails the coverage test until it
// has a baseline in tests/support/route-baselines.ts. FUZZ_RUNS=500 runs deeper locally.

withTestDatabase();

// Calendar providers configured but unreachable (a closed loopback port): their routes answer
// without waiting on the network, and a provider that fails is never a 5xx of ours.
const UNREACHABLE = "http://127.0.0.1:9";
let configBefore: ReturnType<typeof getConfig>;
beforeAll(() => {
  configBefore = getConfig();
  setConfig({
    ...configBefore,
    google: { clientId: "fuzz-client", clientSecret: "fuzz-secret" },
    microsoft: { clientId: "fuzz-client", clientSecret: "fuzz-secret" },
    googleEndpoints: { authUrl: `${UNREACHABLE}/auth`, tokenUrl: `${UNREACHABLE}/token`, revokeUrl: `${UNREACHABLE}/revoke`, apiBaseUrl: UNREACHABLE },
    microsoftEndpoints: { loginBaseUrl: `${UNREACHABLE}/common`, graphBaseUrl: `${UNREACHABLE}/v1.0` },
    caldavServerUrl: UNREACHABLE,
    calendarTimeoutMs: 2_000,
  });
});
afterAll(() => setConfig(configBefore));

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
/** Deeper runs get the time they need (login and register hash passwords: ~50 ms a run). */
const TIMEOUT = Math.max(60_000, RUNS * 200);
// FUZZ_SURVEY=1: list every failing request at the end instead of stopping at the first one.
const SURVEY = process.env.FUZZ_SURVEY === "1";
const surveyed: string[] = [];
const statuses = new Map<string, Record<number, number>>();
afterAll(() => {
  if (!SURVEY) return;
  console.log([...statuses].map(([key, counts]) => `${key}: ${JSON.stringify(counts)}`).join("\n"));
  console.log(`${surveyed.length} failing requests:\n${surveyed.join("\n")}`);
});
const fixtureFor = fixturePool();

type Mounted = { key: string; method: HttpMethod; path: string; handler: RouteHandler };

const mounted: Mounted[] = [...routeModules, openapi].flatMap((module) =>
  HTTP_METHODS.flatMap((m) => {
    const handler = module[m];
    // Keys and templates below /api/v1, as the baselines name them and send() calls them.
    const path = handler.mount?.path.slice(API_PREFIX.length);
    return path ? [{ key: `${m} ${path}`, method: m, path, handler }] : [];
  }),
);

describe("route coverage", () => {
  it("fuzzes every mounted route, or says why not", () => {
    const keys = mounted.map((r) => r.key).sort();
    const covered = [...Object.keys(operations), ...Object.keys(SKIPPED)].sort();
    expect(covered, "a route of app/api/v1/routes.ts has no baseline in this file (or a stale one)").toEqual(keys);
    for (const reason of Object.values(SKIPPED)) expect(reason.length).toBeGreaterThan(10);
    // A module whose handlers are not made by endpoint() has no mount, and would slip past the list above.
    for (const routeModule of [...routeModules, openapi]) expect(HTTP_METHODS.some((m) => routeModule[m].mount)).toBe(true);
  });
});

describe("the fuzzer's own mutations", () => {
  it("put copies into a request: a later change inside a shared hostile shape leaves the shape as it was", () => {
    const shared = JSON.parse('{"toString": "x", "__proto__": {"isAdmin": true}}') as Record<string, unknown>;
    const raw = new RawJson("1e400");
    const shape = { params: {}, query: {}, headers: {}, body: { dateOverrides: [] } };
    const mutation: Mutation = {
      kind: "set",
      changes: [
        { where: "body", path: ["dateOverrides"], value: shared },
        { where: "body", path: ["dateOverrides", 0, "startTime"], value: shared },
        { where: "body", path: ["limit"], value: raw },
      ],
    };
    const { shape: sent } = applyMutation(shape, mutation);
    expect(JSON.stringify(shared)).toBe('{"toString":"x","__proto__":{"isAdmin":true}}');
    // (An integer key comes first in a JavaScript object's order.)
    expect(toJsonText(sent.body)).toBe(
      '{"dateOverrides":{"0":{"startTime":{"toString":"x","__proto__":{"isAdmin":true}}},"toString":"x","__proto__":{"isAdmin":true}},"limit":1e400}',
    );
  });
});

describe("no 5xx for hostile input", () => {
  it.each(mounted.filter((r) => operations[r.key]))("$key", async ({ key, method, path, handler }) => {
    const build = operations[key]!;
    const spec = handler.spec!;
    const fixtureKey = `op:${key}`;
    const template = await build(await fixtureFor(fixtureKey));
    const space = {
      template,
      hasBody: spec.body !== undefined,
      bodyKeys: schemaKeys(spec.body),
      queryKeys: schemaKeys(spec.query),
      paramKeys: schemaKeys(spec.params),
    };
    // The baseline itself must pass, or the mutations test nothing but the first check.
    const fx0 = await fixtureFor(fixtureKey);
    const baseline = await send(handler, method, path, await build(fx0));
    if (spec.auth === "host") fx0.hostRequests += 1;
    // Below 400: the OAuth routes answer a redirect.
    expect(baseline.status, baseline.text).toBeLessThan(400);

    await fc.assert(
      fc.asyncProperty(mutations(space), async (mutation) => {
        const fx = await fixtureFor(fixtureKey);
        const shape = await build(fx);
        if (spec.auth === "host") fx.hostRequests += 1;
        const answer = await send(handler, method, path, shape, mutation);
        const counts = statuses.get(key) ?? {};
        counts[answer.status] = (counts[answer.status] ?? 0) + 1;
        statuses.set(key, counts);
        try {
          expectNoServerError(answer);
        } catch (error) {
          if (!SURVEY) throw error;
          surveyed.push(`${key}: ${(error as Error).message}`);
        }
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);

  it("unknown paths and methods under /api/v1", async () => {
    const segment = fc.oneof(fc.constantFrom("me", "public", "bookings", "event-types", "cancel", "slots", "auth", "..", "."), hostileString.filter((s) => !/\p{Cs}/u.test(s) && s.length < 1000));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...HTTP_METHODS), fc.array(segment, { minLength: 1, maxLength: 5 }), async (method, segments) => {
        const res = await call(method, `/${segments.map(encodeURIComponent).join("/")}`, { headers: clientHeaders() });
        expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
        if (res.status >= 400) expect(res.body).toMatchObject({ error: expect.any(String), message: expect.any(String), details: expect.any(Object) });
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);
});

// Hostile inputs that reach the database and the slot engine at their limits (years past 9999,
// NUL and lone surrogates, Object.prototype names, numbers too large for a double, deep nesting),
// kept as plain cases that run every time whatever the properties draw: each is one mutation of
// the route's valid baseline, as fast-check prints it.
const set = (where: "body" | "query" | "params", path: (string | number)[], value: unknown): Mutation => ({ kind: "set", changes: [{ where, path, value }] });
const knownHostile: [string, string, Mutation][] = [
  // The last instants of 9999: a time ending past 9999-12-31 would reach PostgreSQL as "+010000-…" (22009).
  ["bookings listed up to the last accepted date", "GET /me/bookings", { kind: "set", changes: [{ where: "query", path: ["from"], value: "9999-12-31" }, { where: "query", path: ["to"], value: "9999-12-31" }] }],
  ["a booking in the last half hour of 9999", "POST /public/{username}/{eventSlug}/bookings", set("body", ["startTime"], "9999-12-31T23:30:00Z")],
  ["a reschedule into the last half hour of 9999", "POST /me/bookings/{bookingId}/reschedule", set("body", ["startTime"], "9999-12-31T23:30:00Z")],
  ["a reschedule to 9999-12-31 at UTC-14", "POST /me/bookings/{bookingId}/reschedule", set("body", ["startTime"], "9999-12-31T00:00:00-14:00")],
  // NUL and lone surrogates in text, years 0 and 275760, Object.prototype names.
  ["NUL in a registered name", "POST /auth/register", set("body", ["fullName"], "a\u0000b")],
  ["a lone surrogate in a profile name", "PATCH /me", set("body", ["fullName"], "\ud800")],
  ["NUL in a login email", "POST /auth/login", set("body", ["email"], "\u0000@example.com")],
  ["year 0 in a date override", "PUT /me/availability", set("body", ["dateOverrides", 0, "date"], "0000-01-01")],
  ["NUL in a weekly rule's time", "PUT /me/availability", set("body", ["weeklyRules", 0, "startTime"], "09:00\u0000")],
  ["a question id named constructor", "POST /me/event-types", set("body", ["customQuestions", 0, "id"], "constructor")],
  ["a question id named __proto__", "PATCH /me/event-types/{eventTypeId}", set("body", ["customQuestions", 1, "id"], "__proto__")],
  ["a lone surrogate in a question label", "POST /me/event-types", set("body", ["customQuestions", 0, "label"], "x\udfff")],
  ["a duration of 1e400", "POST /me/event-types", set("body", ["durationMinutes"], new RawJson("1e400"))],
  ["an answer keyed constructor", "POST /public/{username}/{eventSlug}/bookings", set("body", ["customAnswers", "constructor"], "x")],
  ["an answer keyed __proto__", "POST /public/{username}/{eventSlug}/bookings", set("body", ["customAnswers", "__proto__"], "x")],
  ["NUL in an answer", "POST /public/{username}/{eventSlug}/bookings", set("body", ["customAnswers", "topic"], "\u0000")],
  ["a booking at 0001-01-01", "POST /public/{username}/{eventSlug}/bookings", set("body", ["startTime"], "0001-01-01T00:00:00Z")],
  ["a booking at +275760-09-13", "POST /public/{username}/{eventSlug}/bookings", set("body", ["startTime"], "+275760-09-13T00:00:00Z")],
  ["slots for 0000-01-01", "GET /public/{username}/{eventSlug}/slots", { kind: "set", changes: [{ where: "query", path: ["from"], value: "0000-01-01" }, { where: "query", path: ["to"], value: "0000-01-01" }] }],
  ["a NUL username in the path", "GET /public/{username}/{eventSlug}", set("params", ["username"], "\u0000")],
  ["a lone surrogate slug in the path", "POST /public/{username}/{eventSlug}/bookings", set("params", ["eventSlug"], "\ud800")],
  ["a NUL booking id", "POST /me/bookings/{bookingId}/cancel", set("params", ["bookingId"], "bkg_\u0000")],
  ["a lone surrogate event type id", "DELETE /me/event-types/{eventTypeId}", set("params", ["eventTypeId"], "\ud800")],
  ["a lone surrogate cancel reason", "POST /me/bookings/{bookingId}/cancel", set("body", ["reason"], "\ud800")],
  ["a NUL cancel token", "POST /public/cancel", set("body", ["token"], "\u0000")],
  ["a percent-encoded NUL in the query", "GET /me/bookings", { kind: "rawQuery", query: "from=%00&to=%ED%A0%80" }],
  ["JSON nested 50000 deep", "PUT /me/availability", { kind: "rawBody", body: `${"[".repeat(50_000)}${"]".repeat(50_000)}`, contentType: "application/json" }],
];

describe("no 5xx for known hostile input", () => {
  it.each(knownHostile)("%s (%s)", async (_name, key, mutation) => {
    const route = mounted.find((r) => r.key === key)!;
    const fx = await fixtureFor("known-hostile");
    const shape = await operations[key]!(fx);
    if (route.handler.spec?.auth === "host") fx.hostRequests += 1;
    expectNoServerError(await send(route.handler, route.method, route.path, shape, mutation));
  });
});

describe("valid extremes across routes", () => {
  // Each value alone may be valid; together (a host in UTC+14 open on 9999-12-31, a guest in
  // UTC-12 asking for that day) they reach the slot engine and the database at their limits.
  it("host zone, availability, slots, booking and list at the edges of the accepted years", async () => {
    const validDates = EDGE_DATES.filter((d) => /^(1970|9999)-/.test(d));
    const validInstants = EDGE_INSTANTS.filter((i) => /^(1970|9999)-/.test(i));
    const zones = EDGE_ZONES.filter(isValidTimeZone);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...zones), fc.constantFrom(...zones), fc.constantFrom(...validDates), fc.constantFrom(...validDates), fc.constantFrom(...validInstants), async (hostZone, guestZone, d1, d2, instant) => {
        const [date, until] = d1 <= d2 ? [d1, d2] : [d2, d1];
        const fx = await fixtureFor("extremes");
        fx.hostRequests += 3;
        const token = fx.host.token;
        const answers = [
          await call("PUT", "/me/availability", {
            token,
            body: {
              timezone: hostZone,
              minNoticeHours: 0,
              maxAdvanceDays: 730,
              weeklyRules: [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: "00:00", endTime: "24:00" })),
              dateOverrides: ["1970-01-01", "1970-01-02", "9999-12-30", "9999-12-31"].map((d) => ({ date: d, available: true, intervals: [{ startTime: "00:00", endTime: "24:00" }] })),
            },
          }),
          await call("GET", `/public/${fx.host.username}/${fx.eventType.slug}/slots?from=${date}&to=${date}&timezone=${encodeURIComponent(guestZone)}`, { headers: clientHeaders() }),
          await call("POST", `/public/${fx.host.username}/${fx.eventType.slug}/bookings`, {
            headers: { "idempotency-key": randomUUID() },
            body: { startTime: instant, guestName: "Edge", guestEmail: `${unique("edge")}@example.com`, guestTimezone: guestZone, customAnswers: { topic: "x" } },
          }),
          await call("GET", `/me/bookings?from=${date}&to=${until}`, { token }),
          await call("POST", `/me/bookings/${(await fx.book()).id}/reschedule`, { token, body: { startTime: instant } }),
        ];
        const names = ["PUT availability", "GET slots", "POST booking", "GET /me/bookings", "POST reschedule"];
        const failed = answers.flatMap((res, i) => (res.status >= 500 ? [`${names[i]}: ${res.status}`] : []));
        expect(failed, JSON.stringify({ hostZone, guestZone, date, until, instant })).toEqual([]);
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  }, TIMEOUT);

  it("an idempotent replay of a booking with astral characters, and the same key with another body", async () => {
    const fx = await fixtureFor("replay");
    const key = randomUUID();
    const body = { startTime: fx.nextSlot(), guestName: "𝒜 \u{10FFFF} é", guestEmail: `${unique("replay")}@example.com`, guestTimezone: "Etc/GMT-14", customAnswers: { topic: "😀".repeat(500) } };
    const path = `/public/${fx.host.username}/${fx.eventType.slug}/bookings`;
    const first = await call("POST", path, { headers: { "idempotency-key": key }, body });
    const replay = await call("POST", path, { headers: { "idempotency-key": key }, body });
    const other = await call("POST", path, { headers: { "idempotency-key": key }, body: { ...body, guestName: "\u{10FFFF}" } });
    expect([first.status, replay.status, other.status]).toEqual([201, 201, 422]);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
  });

  // The most a valid request may carry: every limit of the schemas at once.
  it("the largest valid requests", async () => {
    const fx = await fixtureFor("largest");
    const token = fx.host.token;
    const halfHours = (day: number) => Array.from({ length: 48 }, (_, i) => ({ dayOfWeek: day, startTime: time(i * 30), endTime: time(i * 30 + 30) }));
    const time = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
    const dates = Array.from({ length: 1000 }, (_, i) => new Date(Date.UTC(9999, 11, 31) - (999 - i) * 86_400_000).toISOString().slice(0, 10));
    const questions = Array.from({ length: 20 }, (_, i) => ({ id: `q${i}${"_".repeat(60)}`.slice(0, 64), label: "ü".repeat(200), required: true }));
    const eventType = {
      slug: `${unique("max")}-${"a".repeat(40)}`.slice(0, 64),
      title: "😀".repeat(100),
      durationMinutes: 5,
      bufferBeforeMinutes: 240,
      bufferAfterMinutes: 240,
      slotIntervalMinutes: 5,
      location: "l".repeat(500),
      description: "d".repeat(5000),
      customQuestions: questions,
      color: "#FFFFFF",
    };
    const created = await call("POST", "/me/event-types", { token, body: eventType });
    const answers = Object.fromEntries(questions.map((q) => [q.id, "𝒜".repeat(1000)]));
    const results = {
      availability: await call("PUT", "/me/availability", {
        token,
        body: {
          timezone: "Pacific/Kiritimati",
          minNoticeHours: 0,
          maxAdvanceDays: 730,
          weeklyRules: [0, 1, 2, 3, 4, 5, 6].flatMap(halfHours),
          dateOverrides: dates.map((date, i) => (i % 2 ? { date, available: false } : { date, available: true, intervals: [{ startTime: "00:00", endTime: "24:00" }] })),
        },
      }),
      eventType: created,
      slots: await call("GET", `/public/${fx.host.username}/${eventType.slug}/slots?from=${dateIn(1, "UTC")}&to=${dateIn(32, "UTC")}&timezone=Etc%2FGMT%2B12`, { headers: clientHeaders() }),
      booking: await call("POST", `/public/${fx.host.username}/${eventType.slug}/bookings`, {
        headers: { "idempotency-key": randomUUID() },
        body: { startTime: fx.nextSlot(), guestName: "𝒜".repeat(50), guestEmail: `${"a".repeat(60)}@${"b".repeat(60)}.example.com`, guestTimezone: "Etc/GMT+12", customAnswers: answers },
      }),
      list: await call("GET", "/me/bookings?from=1970-01-01&to=9999-12-30&page=100000&limit=100", { token }),
      profile: await call("PATCH", "/me", { token, body: { fullName: "𝒜".repeat(50), timezone: "Etc/GMT-14", avatarUrl: `https://example.com/${"a".repeat(2000)}` } }),
    };
    fx.hostRequests += 4;
    const failed = Object.entries(results).flatMap(([name, res]) => (res.status >= 500 ? [`${name}: ${res.status}`] : []));
    expect(failed).toEqual([]);
    expect(results.eventType.status, JSON.stringify(results.eventType.body)).toBe(201);
    expect(results.availability.status, JSON.stringify(results.availability.body).slice(0, 500)).toBe(200);
    expect(results.booking.status, JSON.stringify(results.booking.body).slice(0, 500)).toBe(201);
  });
});

describe("the accepted years, 1970–9999", () => {
  it("a date or instant outside 1970–9999 is 400, not 500: in overrides, the bookings list, the slots query and a booking's start", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    const auth = { token: host.token };
    const availability = (date: string) =>
      api.put("/me/availability", { minNoticeHours: 0, maxAdvanceDays: 60, weeklyRules: [], dateOverrides: [{ date, available: false }] }, auth);
    for (const date of ["0000-01-01", "1969-12-31", "10000-01-01"]) {
      const res = await availability(date);
      expect(res.status, date).toBe(400);
      expect(res.body.details.issues[0].path).toBe("dateOverrides.0.date");
    }
    expect((await availability("1970-01-01")).status).toBe(200);
    expect((await availability("9999-12-31")).status).toBe(200);

    expect((await api.get("/me/bookings?from=0000-01-01", auth)).status).toBe(400);
    expect((await api.get("/me/bookings?to=9999-12-31", auth)).status).toBe(200);
    const slots = await api.get(`/public/${host.username}/${et.slug}/slots?from=0000-01-01&to=0000-01-02&timezone=UTC`, { headers: clientHeaders() });
    expect(slots.status).toBe(400);

    for (const startTime of ["0001-01-01T00:00:00Z", "1969-12-31T23:59:59Z"]) {
      const res = await book(host, et.slug, startTime);
      expect(res.status, startTime).toBe(400);
      expect(res.body.details.issues[0].path).toBe("startTime");
    }
    // A real instant outside the booking window stays what it is: a slot that is not offered.
    const past = await book(host, et.slug, "2020-01-06T15:00:00Z");
    expect(past.status).toBe(409);
    expect(past.body.error).toBe("slot_unavailable");
  });

  it("the last half hour of 9999: a booking and both reschedules (host's, guest's) answer 409, explain 200, never 500", async () => {
    const host = await createHost();
    const et = await createEventType(host);
    const late = "9999-12-31T23:30:00Z";
    expect((await book(host, et.slug, late)).status).toBe(409);
    const made = await (async () => {
      const date = dateIn(3, host.timezone);
      await openOnly(host, date);
      const [slot] = await getSlots(host, et.slug, date);
      return (await book(host, et.slug, slot!.startTime)).body;
    })();
    expect((await api.post(`/me/bookings/${made.id}/reschedule`, { startTime: late }, { token: host.token })).status).toBe(409);
    expect((await api.post("/public/reschedule", { token: made.cancelUrl.split("/").pop(), startTime: late })).status).toBe(409);
    expect((await api.get(`/me/event-types/${et.id}/explain?startTime=${late}`, { token: host.token })).status).toBe(200);
  });
});
