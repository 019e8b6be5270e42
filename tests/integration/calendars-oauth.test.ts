import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { DateTime } from "luxon";
import { encode } from "next-auth/jwt";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/store/database";
import { bookingCalendarEvents, busyIntervals, calendarConnections, oauthStateUses, outboxJobs } from "@/db/schema";
import { CALENDAR_WRITE } from "@/lib/outbox/kinds";
import { sessionCookieName, sessionSecret } from "@/lib/auth/session";
import { getConfig, parseConfig } from "@/lib/config";
import { CREDENTIALS_PURPOSE } from "@/lib/calendars";
import { log } from "@/lib/log";
import { open, seal } from "@/lib/secret-box";
import { api, site } from "../support/api";
import { book, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { startFakeGoogle, type FakeGoogle } from "../support/fake-google";
import { startFakeMicrosoft, type FakeMicrosoft } from "../support/fake-microsoft";
import { configure, testWorker } from "../support/jobs";

// Google (provider_a) and Microsoft (provider_b) through the real API and the real client code,
// pointed at local servers that speak the providers' wire formats: the whole OAuth round trip,
// busy time reaching the slot list, bookings written to the calendar, and the failures users of
// other products report (a revoked grant, a 429, a 500, a provider that hangs).

withTestDatabase({ isolated: true });

/** What the tests need of either fake, whatever its provider's shapes. */
type Fake = {
  name: "provider_a" | "provider_b";
  env: Record<string, string>;
  email: string;
  consent(authorizeUrl: string): Promise<string>;
  addBusy(start: Date, end: Date, options?: { free?: boolean }): void;
  /** The events in the primary calendar, as [start, end) in ms. */
  primaryEvents(): { start: number; end: number }[];
  revokeGrant(): void;
  expireAccessTokens(): void;
  behave(mode: { kind: "ok" } | { kind: "fail"; status: number } | { kind: "rateLimit" } | { kind: "hang" }): void;
  /** The calendar API requests (not OAuth token calls) the fake got so far, as `METHOD path`. */
  apiRequests(): string[];
  close(): Promise<void>;
};

let google: FakeGoogle;
let microsoft: FakeMicrosoft;
beforeAll(async () => {
  [google, microsoft] = await Promise.all([startFakeGoogle(), startFakeMicrosoft()]);
});
afterAll(async () => {
  await Promise.all([google?.close(), microsoft?.close()]);
});

function googleFake(): Fake {
  const primary = () => google.email;
  return {
    name: "provider_a",
    env: google.env,
    email: google.email,
    consent: (url) => google.consent(url),
    addBusy: (start, end, options) => google.addEvent(primary(), { start, end, transparent: options?.free }),
    primaryEvents: () => google.events(primary()).map((e) => ({ start: Date.parse(e.start.dateTime), end: Date.parse(e.end.dateTime) })),
    revokeGrant: () => google.revokeGrant(),
    expireAccessTokens: () => google.expireAccessTokens(),
    behave: (mode) => google.behave(mode),
    apiRequests: () => google.requests.filter((r) => r.path.startsWith("/calendar/v3/")).map((r) => `${r.method} ${decodeURIComponent(r.path)}`),
    close: () => google.close(),
  };
}

function microsoftFake(): Fake {
  const primary = () => microsoft.calendars.find((c) => c.isDefaultCalendar)!.id;
  return {
    name: "provider_b",
    env: microsoft.env,
    email: microsoft.email,
    consent: (url) => microsoft.consent(url),
    addBusy: (start, end, options) => microsoft.addEvent(primary(), { start, end, showAs: options?.free ? "free" : "busy" }),
    primaryEvents: () => microsoft.events(primary()).map((e) => ({ start: Date.parse(`${e.start.dateTime}Z`), end: Date.parse(`${e.end.dateTime}Z`) })),
    revokeGrant: () => microsoft.revokeGrant(),
    expireAccessTokens: () => microsoft.expireAccessTokens(),
    behave: (mode) => microsoft.behave(mode),
    apiRequests: () => microsoft.requests.filter((r) => r.path.startsWith("/v1.0/")).map((r) => `${r.method} ${decodeURIComponent(r.path)}`),
    close: () => microsoft.close(),
  };
}

/** Points the service's provider settings at the fakes (both, so a host can connect each) for this test. */
function useFake(fake: Fake, extra: Record<string, string> = {}) {
  const parsed = parseConfig({
    NODE_ENV: "test",
    DATA_DIR: getConfig().dataDir,
    JWT_SECRET: "x".repeat(32),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    ...google.env,
    ...microsoft.env,
    ...fake.env,
    ...extra,
  });
  configure({
    google: parsed.google,
    googleEndpoints: parsed.googleEndpoints,
    microsoft: parsed.microsoft,
    microsoftEndpoints: parsed.microsoftEndpoints,
    calendarTimeoutMs: parsed.calendarTimeoutMs,
  });
}

/**
 * The authorize step (302 to the consent page) and what the browser keeps from it: the
 * `name=value` pairs of its Set-Cookie headers, as the Cookie header the browser sends back.
 */
async function authorize(host: TestHost, provider: Fake["name"]) {
  const res = await api.get(`/me/calendar-connections/oauth/${provider}/authorize`, { token: host.token });
  expect(res.status, JSON.stringify(res.body)).toBe(302);
  const setCookies = res.headers.getSetCookie();
  const consentUrl = res.headers.get("location")!;
  return { consentUrl, state: new URL(consentUrl).searchParams.get("state")!, setCookies, cookie: setCookies.map((c) => c.split(";")[0]!).join("; ") };
}

/** The provider sends the browser back to our callback; `cookie` is what that browser holds. */
function callback(back: URL, cookie = "", accept?: string) {
  return site.get(`${back.pathname}${back.search}`, { headers: { cookie, ...(accept ? { accept } : {}) } });
}

/** The browser's part: authorize (302) → the provider's consent → back to our callback (302). */
async function connect(host: TestHost, fake: Fake) {
  const started = await authorize(host, fake.name);
  const back = new URL(await fake.consent(started.consentUrl));
  expect(`${back.origin}${back.pathname}`).toBe(`${getConfig().appUrl}/api/v1/oauth/callback/${fake.name}`);
  return callback(back, started.cookie);
}

/** A dashboard session cookie as next-auth issues it (as in session-auth.test.ts). */
async function sessionCookie(userId: string): Promise<string> {
  return `${sessionCookieName()}=${await encode({ token: { sub: userId }, secret: sessionSecret(), maxAge: 3600 })}`;
}

async function connections(host: TestHost) {
  const res = await api.get("/me/calendar-connections", { token: host.token });
  expect(res.status).toBe(200);
  return res.body.data as any[];
}

/** A host open 09:00–17:00 UTC on a day a few days ahead, with a 60-minute event type. */
async function bookableHost() {
  const host = await createHost({ timezone: "UTC" });
  const date = dateIn(4, "UTC");
  await openOnly(host, date, [{ startTime: "09:00", endTime: "17:00" }]);
  const eventType = await createEventType(host, { durationMinutes: 60 });
  const at = (hour: number) => DateTime.fromISO(`${date}T${String(hour).padStart(2, "0")}:00`, { zone: "UTC" }).toJSDate();
  const starts = async () => (await getSlots(host, eventType.slug, date)).map((s) => s.startTime);
  return { host, date, eventType, at, starts };
}

const iso = (d: Date) => d.toISOString().replace(".000Z", "Z");

describe.each([["Google", googleFake], ["Microsoft", microsoftFake]] as const)("%s calendar (OAuth)", (_name, make) => {
  it("connects through the whole OAuth round trip; the account's busy time leaves the slot list at once", async () => {
    const fake = make();
    useFake(fake);
    const { host, at, starts } = await bookableHost();
    fake.addBusy(at(12), at(13));
    fake.addBusy(at(15), at(16), { free: true }); // shown as free: not busy
    expect(await starts()).toContain(iso(at(12)));

    const callback = await connect(host, fake);
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).toBe(`${getConfig().appUrl}/dashboard/calendars?connected=${fake.name}`);

    const [connection, ...others] = await connections(host);
    expect(others).toEqual([]);
    expect(connection).toMatchObject({ id: expect.stringMatching(/^cal_/), provider: fake.name, email: fake.email, status: "connected", lastError: null });
    expect(Date.parse(connection.lastSyncedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(connection.calendars.length).toBeGreaterThan(0);
    expect(connection.calendars.every((c: any) => c.checkConflicts)).toBe(true);
    expect(connection.calendars.filter((c: any) => c.writeTarget)).toHaveLength(1);

    const slots = await starts();
    expect(slots).not.toContain(iso(at(12)));
    expect(slots).toContain(iso(at(11))); // 11:00–12:00 only touches the busy hour: allowed
    expect(slots).toContain(iso(at(15)));

    // The refresh token is stored sealed: nowhere in the row in plain text.
    const [row] = await (await getDb()).select().from(calendarConnections).where(eq(calendarConnections.id, connection.id));
    expect(row!.credentialsEncrypted).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toMatch(/refresh/i);
  });

  it("a second consent for the same account renews the connection instead of adding one", async () => {
    const fake = make();
    useFake(fake);
    const host = await createHost();
    await connect(host, fake);
    await connect(host, fake);
    expect(await connections(host)).toHaveLength(1);
  });

  it("refreshes an expired access token by itself; a revoked grant turns the status to reauth_required and keeps the busy data", async () => {
    const fake = make();
    useFake(fake);
    const { host, at, starts } = await bookableHost();
    fake.addBusy(at(10), at(11));
    await connect(host, fake);
    const [connection] = await connections(host);

    fake.expireAccessTokens();
    const refreshed = await api.post(`/me/calendar-connections/${connection.id}/sync`, undefined, { token: host.token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.status).toBe("connected");

    fake.revokeGrant();
    fake.expireAccessTokens();
    const revoked = await api.post(`/me/calendar-connections/${connection.id}/sync`, undefined, { token: host.token });
    expect(revoked.body).toMatchObject({ status: "reauth_required", lastError: expect.any(String), lastSyncedAt: refreshed.body.lastSyncedAt });
    expect(await starts()).not.toContain(iso(at(10)));
  });

  it.each([
    ["500", { kind: "fail", status: 500 }],
    ["429", { kind: "rateLimit" }],
  ] as const)("a provider answering %s: status error, the last known busy time still counts, and the next good sync recovers", async (_label, mode) => {
    const fake = make();
    useFake(fake);
    const { host, at, starts } = await bookableHost();
    fake.addBusy(at(9), at(10));
    await connect(host, fake);
    const [connection] = await connections(host);

    fake.behave(mode);
    const failed = await api.post(`/me/calendar-connections/${connection.id}/sync`, undefined, { token: host.token });
    expect(failed.body).toMatchObject({ status: "error", lastSyncedAt: connection.lastSyncedAt, lastError: expect.any(String) });
    expect(await starts()).not.toContain(iso(at(9)));

    fake.behave({ kind: "ok" });
    const recovered = await api.post(`/me/calendar-connections/${connection.id}/sync`, undefined, { token: host.token });
    expect(recovered.body).toMatchObject({ status: "connected", lastError: null });
  });

  it("a provider that hangs holds only its own sync: the slot list answers from the stored busy time meanwhile", async () => {
    const fake = make();
    useFake(fake, { CALENDAR_TIMEOUT_MS: "1500" });
    const { host, at, starts } = await bookableHost();
    fake.addBusy(at(14), at(15));
    await connect(host, fake);
    const [connection] = await connections(host);

    fake.behave({ kind: "hang" });
    const sync = api.post(`/me/calendar-connections/${connection.id}/sync`, undefined, { token: host.token });
    const started = performance.now();
    expect(await starts()).not.toContain(iso(at(14)));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect((await sync).body.status).toBe("error");
    fake.behave({ kind: "ok" });
  });

  it("writes bookings to the write target: made on booking, moved on reschedule, removed on cancel", async () => {
    const fake = make();
    useFake(fake);
    const { host, eventType, at } = await bookableHost();
    await connect(host, fake);
    const worker = await testWorker();

    // The fake account keeps the other tests' busy hours on this date; 11:00 and 13:00 stay free.
    const before = fake.primaryEvents();
    const ours = () => fake.primaryEvents().filter((e) => !before.some((b) => b.start === e.start && b.end === e.end));
    const made = await book(host, eventType.slug, iso(at(11)));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await worker.runDueJobs();
    expect(ours()).toEqual([{ start: at(11).getTime(), end: at(12).getTime() }]);
    const [kept] = await (await getDb()).select().from(bookingCalendarEvents).where(eq(bookingCalendarEvents.bookingId, made.body.id));
    expect(kept?.externalEventId).toBeTruthy();

    const moved = await api.post(`/me/bookings/${made.body.id}/reschedule`, { startTime: iso(at(13)) }, { token: host.token });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await worker.runDueJobs();
    expect(ours()).toEqual([{ start: at(13).getTime(), end: at(14).getTime() }]);

    const cancelled = await api.post(`/me/bookings/${made.body.id}/cancel`, { reason: "Away" }, { token: host.token });
    expect(cancelled.status).toBe(200);
    await worker.runDueJobs();
    expect(ours()).toEqual([]);
  });

  it("a booking's own event never blocks its move; a sync with nothing new costs one list and one read per calendar", async () => {
    const fake = make();
    useFake(fake);
    const { host, at } = await bookableHost();
    const eventType = await createEventType(host, { durationMinutes: 30, slotIntervalMinutes: 15 });
    await connect(host, fake);
    const [connection] = await connections(host);
    const worker = await testWorker();
    const sync = async () => {
      const res = await api.post(`/me/calendar-connections/${connection.id}/sync`, undefined, { token: host.token });
      expect(res.body.status).toBe("connected");
    };

    const made = await book(host, eventType.slug, iso(at(11)));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await worker.runDueJobs();
    const minutes = (m: number) => at(11).getTime() + m * 60_000;
    expect(fake.primaryEvents()).toContainEqual({ start: minutes(0), end: minutes(30) });
    await sync(); // reads the booking's event [11:00, 11:30) from the provider

    // Moving it a quarter of an hour overlaps its own old event: that must not count as busy.
    const moved = await api.post(`/me/bookings/${made.body.id}/reschedule`, { startTime: iso(new Date(minutes(15))) }, { token: host.token });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await worker.runDueJobs();
    await sync();

    // Nothing changed since: the account's calendars are listed and each calendar asked once for what changed.
    const before = fake.apiRequests().length;
    await sync();
    const spent = fake.apiRequests().slice(before);
    const calendars = (await connections(host))[0].calendars.length;
    const reads = spent.filter((r) => /\/events$|\/calendarView\/delta$/.test(r));
    expect(reads).toHaveLength(calendars);
    expect(spent.filter((r) => /\/freeBusy$|\/calendarView$/.test(r))).toEqual([]);
    expect(spent.length - reads.length).toBeLessThanOrEqual(2); // the calendar list, in its pages
    console.info(`[sync] ${fake.name}: a sync with nothing new made ${spent.length} requests for ${calendars} calendars`);

    // The shared fake account must not keep this booking's event for the other tests.
    expect((await api.post(`/me/bookings/${made.body.id}/cancel`, { reason: "done" }, { token: host.token })).status).toBe(200);
    await worker.runDueJobs();
  });
});

describe("calendar.write jobs are made for hosts with calendar work only", () => {
  const calendarJobsOf = async (bookingId: string) =>
    (await getDb())
      .select()
      .from(outboxJobs)
      .where(and(eq(outboxJobs.kind, CALENDAR_WRITE), sql`${outboxJobs.payload}->>'bookingId' = ${bookingId}`));

  it("none for a host without a write target; one for a host with one (and it is written), and one to remove an event written before", async () => {
    const fake = googleFake();
    useFake(fake);
    const worker = await testWorker();

    const plain = await bookableHost();
    const unwritten = await book(plain.host, plain.eventType.slug, iso(plain.at(10)));
    expect(unwritten.status, JSON.stringify(unwritten.body)).toBe(201);
    await worker.runDueJobs();
    expect(await calendarJobsOf(unwritten.body.id)).toEqual([]);

    const { host, eventType, at } = await bookableHost();
    await connect(host, fake);
    const before = fake.primaryEvents();
    const ours = () => fake.primaryEvents().filter((e) => !before.some((b) => b.start === e.start && b.end === e.end));
    const made = await book(host, eventType.slug, iso(at(11)));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await worker.runDueJobs();
    expect((await calendarJobsOf(made.body.id)).map((j) => j.status)).toEqual(["done"]);
    expect(ours()).toEqual([{ start: at(11).getTime(), end: at(12).getTime() }]);

    // The host stops writing to the calendar: a new booking makes no job, but the event written
    // before is still the booking's, so its cancel makes one, which removes it.
    const [connection] = await connections(host);
    const target = connection.calendars.find((c: any) => c.writeTarget);
    const off = await api.patch(`/me/calendar-connections/${connection.id}`, { calendars: [{ id: target.id, writeTarget: false }] }, { token: host.token });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const later = await book(host, eventType.slug, iso(at(13)));
    expect(later.status, JSON.stringify(later.body)).toBe(201);
    const cancelled = await api.post(`/me/bookings/${made.body.id}/cancel`, { reason: "Away" }, { token: host.token });
    expect(cancelled.status).toBe(200);
    await worker.runDueJobs();
    expect(await calendarJobsOf(later.body.id)).toEqual([]);
    expect((await calendarJobsOf(made.body.id)).map((j) => j.status)).toEqual(["done", "done"]);
    expect(ours()).toEqual([]);
  });
});

describe("OAuth state and configuration", () => {
  it("a forged, expired or other provider's state connects nothing and answers a 400 page", async () => {
    const fake = googleFake();
    useFake(fake);
    const host = await createHost();
    const authorize = await api.get("/me/calendar-connections/oauth/provider_a/authorize", { token: host.token });
    const back = new URL(await fake.consent(authorize.headers.get("location")!));
    const code = back.searchParams.get("code")!;

    const expired = seal(JSON.stringify({ userId: host.id, provider: "provider_a", verifier: "v".repeat(43), expiresAt: Date.now() - 1 }), "calendar:oauth-state");
    const cases = [
      `code=${code}&state=forged`,
      `code=${code}&state=${encodeURIComponent(expired)}`,
      `code=${code}`,
    ];
    const browser = { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } };
    for (const query of cases) {
      const res = await site.get(`/api/v1/oauth/callback/provider_a?${query}`, browser);
      expect(res.status, query).toBe(400);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(res.body).toContain("not connected");
      // Any other client gets the API's JSON error.
      const json = await site.get(`/api/v1/oauth/callback/provider_a?${query}`);
      expect(json.status).toBe(400);
      expect(json.body).toMatchObject({ error: "validation_error", details: { issues: [{ path: "state" }] } });
    }
    // provider_a's state presented at provider_b's callback
    const crossed = await site.get(`/api/v1/oauth/callback/provider_b?${back.searchParams}`);
    expect(crossed.status).toBe(400);
    expect(await connections(host)).toEqual([]);
  });

  it("a declined consent goes back to the dashboard with an error flag, connecting nothing, and uses up the state", async () => {
    const fake = googleFake();
    useFake(fake);
    const host = await createHost();
    const { consentUrl, state, cookie } = await authorize(host, "provider_a");
    const res = await site.get(`/api/v1/oauth/callback/provider_a?error=access_denied&state=${encodeURIComponent(state)}`, { headers: { cookie } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${getConfig().appUrl}/dashboard/calendars?error=access_denied`);
    expect(await connections(host)).toEqual([]);
    // The same state with a code afterwards (the consent page opened again) connects nothing.
    const again = await callback(new URL(await fake.consent(consentUrl)), cookie);
    expect(again.status).toBe(400);
    expect(await connections(host)).toEqual([]);
  });

  it("authorize needs a host, and answers 503 when the provider's OAuth client is not configured", async () => {
    configure({ google: undefined });
    const host = await createHost();
    expect((await api.get("/me/calendar-connections/oauth/provider_a/authorize")).status).toBe(401);
    const res = await api.get("/me/calendar-connections/oauth/provider_a/authorize", { token: host.token });
    expect(res.status).toBe(503);
    expect(res.body.error).toBe("provider_unavailable");
    // The dashboard's Connect button is a browser navigation: back to the page, with the reason.
    const browser = await api.get("/me/calendar-connections/oauth/provider_a/authorize", { token: host.token, headers: { accept: "text/html" } });
    expect(browser.status).toBe(302);
    expect(browser.headers.get("location")).toBe(`${getConfig().appUrl}/dashboard/calendars?error=not_configured`);
    expect((await api.get("/me/calendar-connections/oauth/provider_c/authorize", { token: host.token })).status).toBe(400);
  });
});

describe("the OAuth flow is bound to the browser that started it, and a state connects once", () => {
  const html = "text/html,application/xhtml+xml,*/*;q=0.8";

  it("authorize sets the browser's nonce cookie: HttpOnly, SameSite=Lax, as long as the state lives", async () => {
    useFake(googleFake());
    const host = await createHost();
    const { setCookies } = await authorize(host, "provider_a");
    expect(setCookies).toHaveLength(1);
    expect(setCookies[0]).toMatch(/^oauth_nonce=[\w-]{32,}; /);
    const attributes = setCookies[0]!.split(/;\s*/).slice(1).map((a) => a.toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(["path=/", "httponly", "samesite=lax", "max-age=600"]));
    expect(attributes).not.toContain("secure"); // APP_URL is http in tests
    // A new flow, a new nonce.
    expect((await authorize(host, "provider_a")).cookie).not.toBe((await authorize(host, "provider_a")).cookie);
  });

  it("on an https APP_URL the cookie is __Host- prefixed and Secure, and the flow completes with it", async () => {
    const fake = googleFake();
    useFake(fake);
    configure({ appUrl: "https://booking.test" });
    const host = await createHost();
    const started = await authorize(host, "provider_a");
    expect(started.setCookies[0]).toMatch(/^__Host-oauth_nonce=[\w-]{32,}; /);
    expect(started.setCookies[0]!.split(/;\s*/).map((a) => a.toLowerCase())).toEqual(expect.arrayContaining(["secure", "path=/"]));
    const back = new URL(await fake.consent(started.consentUrl));
    const bare = started.cookie.replace(/^__Host-/, "");
    expect((await callback(back, bare)).status).toBe(400); // the unprefixed name is not the cookie
    expect((await callback(back, started.cookie)).status).toBe(302);
    expect(await connections(host)).toHaveLength(1);
  });

  it("a valid state with neither the nonce cookie nor a session connects nothing (400)", async () => {
    const fake = googleFake();
    useFake(fake);
    const host = await createHost();
    const { consentUrl } = await authorize(host, "provider_a");
    const back = new URL(await fake.consent(consentUrl));

    const json = await callback(back);
    expect(json.status).toBe(400);
    expect(json.body).toMatchObject({ error: "validation_error", details: { issues: [{ path: "state" }] } });
    const page = await callback(back, "", html);
    expect(page.status).toBe(400);
    expect(page.body).toContain("not connected");
    expect(await connections(host)).toEqual([]);
  });

  it("account M's state completed in a victim's browser links nothing to M (a consent link sent to someone else)", async () => {
    const fake = googleFake();
    useFake(fake);
    const attacker = await createHost();
    const victim = await createHost();
    // M starts a flow in M's own browser and sends the consent link to the victim.
    const lure = await authorize(attacker, "provider_a");
    // The victim's browser: signed in to the dashboard as the victim, and with a nonce of its own.
    const own = await authorize(victim, "provider_a");
    const victimCookies = `${await sessionCookie(victim.id)}; ${own.cookie}`;
    const back = new URL(await fake.consent(lure.consentUrl)); // the victim consents with their account

    for (const cookie of ["", victimCookies]) {
      const res = await callback(back, cookie, html);
      expect(res.status, cookie).toBe(400);
      expect(res.headers.getSetCookie()).toEqual([]); // the victim's own flow keeps its cookie
    }
    expect(await connections(attacker)).toEqual([]);
    expect(await connections(victim)).toEqual([]);
  });

  it("a state connects once: the same state again, with a fresh code and the right cookie, is refused", async () => {
    const fake = googleFake();
    useFake(fake);
    const host = await createHost();
    const started = await authorize(host, "provider_a");
    const first = await callback(new URL(await fake.consent(started.consentUrl)), started.cookie);
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe(`${getConfig().appUrl}/dashboard/calendars?connected=provider_a`);
    // Success clears the nonce cookie.
    const cleared = first.headers.getSetCookie();
    expect(cleared).toHaveLength(1);
    expect(cleared[0]).toMatch(/^oauth_nonce=; /);
    expect(cleared[0]!.toLowerCase()).toContain("max-age=0");

    const [connection] = await connections(host);
    const second = await callback(new URL(await fake.consent(started.consentUrl)), started.cookie, html);
    expect(second.status).toBe(400);
    expect(second.body).toContain("already been used");
    expect((await connections(host)).map((c) => c.id)).toEqual([connection.id]);
  });

  it("two flows in one browser: the later one's cookie wins, the earlier one must start again", async () => {
    const fake = googleFake();
    useFake(fake);
    const host = await createHost();
    const earlier = await authorize(host, "provider_a");
    const later = await authorize(host, "provider_b");
    // The browser keeps one oauth_nonce cookie: the later Set-Cookie replaced the earlier.
    expect((await callback(new URL(await fake.consent(earlier.consentUrl)), later.cookie)).status).toBe(400);
    expect(await connections(host)).toEqual([]);
    expect((await callback(new URL(await microsoft.consent(later.consentUrl)), later.cookie)).status).toBe(302);
    expect((await connections(host)).map((c) => c.provider)).toEqual(["provider_b"]);
  });

  it("without the nonce cookie, the dashboard session of the same host completes it (an API client's user); another host's session does not", async () => {
    const fake = googleFake();
    useFake(fake);
    const host = await createHost();
    const other = await createHost();
    // An API client called authorize with its bearer token: its Set-Cookie never reaches the
    // browser where the person opens the consent link.
    const { consentUrl } = await authorize(host, "provider_a");
    const back = new URL(await fake.consent(consentUrl));

    expect((await callback(back, await sessionCookie(other.id))).status).toBe(400);
    expect((await callback(back, `${sessionCookieName()}=garbage`)).status).toBe(400);
    expect(await connections(other)).toEqual([]);
    expect(await connections(host)).toEqual([]);
    // A session of the host's that a sign-out everywhere ended vouches for nobody.
    const ended = `${sessionCookieName()}=${await encode({ token: { sub: host.id, sv: 0 }, secret: sessionSecret(), maxAge: 3600 })}`;
    expect((await api.post("/auth/logout", undefined, { token: host.token })).status).toBe(204);
    expect((await callback(back, ended)).status).toBe(400);
    host.token = (await api.post("/auth/login", { email: host.email, password: host.password })).body.accessToken as string;
    expect(await connections(host)).toEqual([]);

    // Refusals do not use the state up: the host's own browser still completes it.
    const res = await callback(back, `${sessionCookieName()}=${await encode({ token: { sub: host.id, sv: 1 }, secret: sessionSecret(), maxAge: 3600 })}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${getConfig().appUrl}/dashboard/calendars?connected=provider_a`);
    expect(await connections(host)).toHaveLength(1);
  });

  it("used states are forgotten once expired: rows past their expiry are deleted by a later callback", async () => {
    const fake = googleFake();
    useFake(fake);
    const host = await createHost();
    const db = await getDb();
    const stale = `stale-${randomBytes(6).toString("hex")}`;
    await db.insert(oauthStateUses).values({ id: stale, expiresAt: new Date(Date.now() - 2 * 60 * 60_000) });
    expect((await connect(host, fake)).status).toBe(302);
    expect(await db.select().from(oauthStateUses).where(eq(oauthStateUses.id, stale))).toEqual([]);
    expect((await db.select().from(oauthStateUses)).length).toBeGreaterThan(0);
  });
});

describe("per-calendar flags and disconnect", () => {
  it("one write target per host across connections; unchecking conflicts frees the time at once; another host gets 404; delete removes the busy data", async () => {
    useFake(googleFake());
    const { host, at, starts } = await bookableHost();
    const fake = googleFake();
    fake.addBusy(at(16), at(17));
    await connect(host, fake);
    await connect(host, microsoftFake());
    const [g, m] = await connections(host);
    expect([...g.calendars, ...m.calendars].filter((c: any) => c.writeTarget)).toHaveLength(1);
    expect(await starts()).not.toContain(iso(at(16)));

    const mCal = m.calendars.find((c: any) => !c.readOnly);
    const target = await api.patch(`/me/calendar-connections/${m.id}`, { calendars: [{ id: mCal.id, writeTarget: true }] }, { token: host.token });
    expect(target.status, JSON.stringify(target.body)).toBe(200);
    const after = await connections(host);
    const writeTargets = after.flatMap((c) => c.calendars).filter((c: any) => c.writeTarget);
    expect(writeTargets.map((c: any) => c.id)).toEqual([mCal.id]);

    const off = await api.patch(`/me/calendar-connections/${g.id}`, { calendars: g.calendars.map((c: any) => ({ id: c.id, checkConflicts: false })) }, { token: host.token });
    expect(off.status).toBe(200);
    expect(await starts()).toContain(iso(at(16)));

    const bad = await api.patch(`/me/calendar-connections/${g.id}`, { calendars: [{ id: mCal.id, checkConflicts: true }] }, { token: host.token });
    expect(bad.status).toBe(400);
    expect(bad.body.details.issues[0].path).toBe("calendars.0.id");
    const two = await api.patch(`/me/calendar-connections/${g.id}`, { calendars: g.calendars.slice(0, 1).map((c: any) => ({ id: c.id, writeTarget: true })).concat([{ id: mCal.id, writeTarget: true }]) }, { token: host.token });
    expect(two.status).toBe(400);

    const stranger = await createHost();
    expect((await api.patch(`/me/calendar-connections/${g.id}`, { calendars: [{ id: g.calendars[0].id, checkConflicts: true }] }, { token: stranger.token })).status).toBe(404);
    expect((await api.delete(`/me/calendar-connections/${g.id}`, { token: stranger.token })).status).toBe(404);
    expect((await api.post(`/me/calendar-connections/${g.id}/sync`, undefined, { token: stranger.token })).status).toBe(404);

    expect((await api.delete(`/me/calendar-connections/${g.id}`, { token: host.token })).status).toBe(204);
    expect((await connections(host)).map((c) => c.id)).toEqual([m.id]);
    const left = await (await getDb()).select().from(busyIntervals).where(eq(busyIntervals.userId, host.id));
    const gone = new Set(g.calendars.map((c: any) => c.id));
    expect(left.filter((b) => gone.has(b.calendarId))).toEqual([]);
    expect((await api.delete(`/me/calendar-connections/${g.id}`, { token: host.token })).status).toBe(404);
  });
});

describe("read-only calendars", () => {
  it("Google: a calendar the account only reads is flagged, refused as write target, and one that becomes read-only stops being it", async () => {
    useFake(googleFake());
    const host = await createHost({ timezone: "UTC" });
    const team = google.calendars.find((c) => c.summary === "Team")!;
    try {
      await connect(host, googleFake());
      const [g] = await connections(host);
      const flags = Object.fromEntries(g.calendars.map((c: any) => [c.name, { readOnly: c.readOnly, writeTarget: c.writeTarget }]));
      expect(flags).toEqual({
        [google.email]: { readOnly: false, writeTarget: true },
        Team: { readOnly: false, writeTarget: false },
        "Holidays in United States": { readOnly: true, writeTarget: false },
      });

      const holidays = g.calendars.find((c: any) => c.readOnly);
      const refused = await api.patch(`/me/calendar-connections/${g.id}`, { calendars: [{ id: holidays.id, writeTarget: true }] }, { token: host.token });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body).toMatchObject({ error: "validation_error", details: { issues: [{ path: "calendars.0.writeTarget", message: expect.stringContaining("read only") }] } });
      // Nothing changed: the primary is still the write target.
      expect((await connections(host))[0].calendars.filter((c: any) => c.writeTarget).map((c: any) => c.name)).toEqual([google.email]);

      const teamId = g.calendars.find((c: any) => c.name === "Team").id;
      expect((await api.patch(`/me/calendar-connections/${g.id}`, { calendars: [{ id: teamId, writeTarget: true }] }, { token: host.token })).status).toBe(200);
      // The calendar's owner takes away our write access; the next sync notices.
      team.accessRole = "reader";
      const synced = await api.post(`/me/calendar-connections/${g.id}/sync`, undefined, { token: host.token });
      expect(synced.body.calendars.find((c: any) => c.id === teamId)).toMatchObject({ readOnly: true, writeTarget: false });
      team.accessRole = "writer";
      const back = await api.post(`/me/calendar-connections/${g.id}/sync`, undefined, { token: host.token });
      expect(back.body.calendars.find((c: any) => c.id === teamId)).toMatchObject({ readOnly: false, writeTarget: false });
    } finally {
      team.accessRole = "writer";
    }
  });

  it("Microsoft: the automatic write target is never a read-only calendar, even the default one", async () => {
    useFake(microsoftFake());
    const host = await createHost({ timezone: "UTC" });
    const main = microsoft.calendars.find((c) => c.isDefaultCalendar)!;
    main.canEdit = false;
    try {
      await connect(host, microsoftFake());
      const [m] = await connections(host);
      expect(m.calendars.length).toBeGreaterThan(1);
      expect(m.calendars.every((c: any) => c.readOnly && !c.writeTarget)).toBe(true);
    } finally {
      main.canEdit = true;
    }
    // With a host whose default calendar is writable, that one is chosen and only it is writable.
    const other = await createHost({ timezone: "UTC" });
    await connect(other, microsoftFake());
    const [m] = await connections(other);
    expect(m.calendars.map((c: any) => [c.name, c.readOnly, c.writeTarget])).toEqual(
      expect.arrayContaining([
        ["Calendar", false, true],
        ["Birthdays", true, false],
        ["United States holidays", true, false],
      ]),
    );
  });
});

describe("disconnect revokes the Google grant", () => {
  // A Google account of its own per test: no other test's connection holds it.
  let shared: FakeGoogle;
  beforeEach(async () => {
    shared = google;
    google = await startFakeGoogle();
  });
  afterEach(async () => {
    await google.close();
    google = shared;
  });

  /** The refresh token the service holds for the host's Google connection, as stored (sealed). */
  async function storedRefreshToken(connectionId: string): Promise<string> {
    const [row] = await (await getDb()).select().from(calendarConnections).where(eq(calendarConnections.id, connectionId));
    return (JSON.parse(open(row!.credentialsEncrypted!, CREDENTIALS_PURPOSE)!) as { refreshToken: string }).refreshToken;
  }

  /** What Google's token endpoint answers a refresh with this token. */
  async function refreshWith(refreshToken: string) {
    const res = await fetch(google.env.GOOGLE_TOKEN_URL, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: google.clientId, client_secret: google.clientSecret }),
    });
    return { status: res.status, body: (await res.json()) as { error?: string } };
  }

  it("DELETE revokes the refresh token at Google: afterwards Google refuses it (invalid_grant)", async () => {
    useFake(googleFake());
    const host = await createHost();
    await connect(host, googleFake());
    const [g] = await connections(host);
    const refreshToken = await storedRefreshToken(g.id);
    expect((await refreshWith(refreshToken)).status).toBe(200);

    expect((await api.delete(`/me/calendar-connections/${g.id}`, { token: host.token })).status).toBe(204);
    expect(google.revoked).toContain(refreshToken);
    expect(await refreshWith(refreshToken)).toEqual({ status: 400, body: expect.objectContaining({ error: "invalid_grant" }) });
  });

  it("is best effort: when Google fails, the disconnect still succeeds and the log names no token", async () => {
    useFake(googleFake());
    const host = await createHost();
    await connect(host, googleFake());
    const [g] = await connections(host);
    const refreshToken = await storedRefreshToken(g.id);
    const lines: unknown[] = [];
    for (const level of ["warn", "error", "info"] as const) {
      vi.spyOn(log, level).mockImplementation(((...args: unknown[]) => void lines.push(args)) as never);
    }
    google.behave({ kind: "fail", status: 503, at: "token" });
    try {
      expect((await api.delete(`/me/calendar-connections/${g.id}`, { token: host.token })).status).toBe(204);
    } finally {
      google.behave({ kind: "ok" });
      vi.restoreAllMocks();
    }
    expect(await connections(host)).toEqual([]);
    expect(google.revoked).not.toContain(refreshToken);
    const warning = lines.find((l) => JSON.stringify(l).includes("revoking the grant"));
    expect(warning).toEqual([{ connectionId: g.id, provider: "provider_a", kind: "unavailable", httpStatus: 503 }, expect.any(String)]);
    expect(JSON.stringify(lines)).not.toContain(refreshToken);
  });

  it("is skipped while another host's connection holds the same Google account (Google would end both)", async () => {
    useFake(googleFake());
    const [first, second] = [await createHost(), await createHost()];
    await connect(first, googleFake());
    await connect(second, googleFake());
    const [g1] = await connections(first);
    const [g2] = await connections(second);
    const revokedBefore = google.revoked.length;
    expect((await api.delete(`/me/calendar-connections/${g1.id}`, { token: first.token })).status).toBe(204);
    expect(google.revoked.length).toBe(revokedBefore);
    const synced = await api.post(`/me/calendar-connections/${g2.id}/sync`, undefined, { token: second.token });
    expect(synced.body.status).toBe("connected");
    expect((await api.delete(`/me/calendar-connections/${g2.id}`, { token: second.token })).status).toBe(204);
    expect(google.revoked.length).toBe(revokedBefore + 1);
  });
});
