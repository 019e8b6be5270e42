import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { getDb } from "@/lib/store/database";
import { calendarConnections, calendarPushChannels } from "@/db/schema";
import { getConfig, parseConfig } from "@/lib/config";
import { CalendarSyncLoop } from "@/lib/jobs/calendar-sync-loop";
import { setCalendarSyncWake } from "@/lib/services/calendars/sync-wake";
import { api, site } from "../support/api";
import { startAppServer, type AppServer } from "../support/app-server";
import { dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { startFakeGoogle, type FakeGoogle } from "../support/fake-google";
import { startFakeMicrosoft, type FakeMicrosoft } from "../support/fake-microsoft";
import { configure } from "../support/jobs";

// Push notifications (decisions §17): Google watch channels and Graph subscriptions, created on
// connect where APP_URL is https, verified on receipt, renewed before they expire, stopped on
// disconnect. The fakes speak the providers' wire formats and really call the app over HTTP
// (Graph's validation handshake, every notification), through a listener that stands for the
// TLS-terminating proxy in front of https://booking.test.

withTestDatabase({ isolated: true });

const SITE = "https://booking.test";
const DAY = 86_400_000;

let google: FakeGoogle;
let microsoft: FakeMicrosoft;
let app: AppServer;
beforeAll(async () => {
  [google, microsoft, app] = await Promise.all([startFakeGoogle(), startFakeMicrosoft(), startAppServer()]);
  google.routeHooks(SITE, app.url);
  microsoft.routeHooks(SITE, app.url);
});
afterAll(async () => {
  await Promise.all([google?.close(), microsoft?.close(), app?.close()]);
});

/** The providers pointed at the fakes, and the site at `appUrl` (https unless told). */
function useProviders(appUrl = SITE) {
  const parsed = parseConfig({
    NODE_ENV: "test",
    DATA_DIR: getConfig().dataDir,
    JWT_SECRET: "x".repeat(32),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    ...google.env,
    ...microsoft.env,
  });
  configure({
    appUrl,
    calendarPush: true,
    google: parsed.google,
    googleEndpoints: parsed.googleEndpoints,
    microsoft: parsed.microsoft,
    microsoftEndpoints: parsed.microsoftEndpoints,
    calendarTimeoutMs: 5_000,
  });
}

/** This process's calendar loop, as the server runs it, but polling only once an hour: what syncs in a test was woken. */
async function runningLoop(): Promise<CalendarSyncLoop> {
  const loop = new CalendarSyncLoop({ db: await getDb(), pollMs: 3_600_000, pushEveryMs: 3_600_000 });
  loop.start();
  setCalendarSyncWake(() => loop.wake());
  onTestFinished(async () => {
    setCalendarSyncWake(undefined);
    await loop.stop();
  });
  return loop;
}

/** authorize (302) → the fake's consent → our callback (302): the browser's part of connecting. */
async function connect(host: TestHost, provider: "provider_a" | "provider_b") {
  const started = await api.get(`/me/calendar-connections/oauth/${provider}/authorize`, { token: host.token });
  expect(started.status, JSON.stringify(started.body)).toBe(302);
  const cookie = started.headers.getSetCookie().map((c) => c.split(";")[0]!).join("; ");
  const consentUrl = started.headers.get("location")!;
  const back = new URL(provider === "provider_a" ? await google.consent(consentUrl) : await microsoft.consent(consentUrl));
  const res = await site.get(`${back.pathname}${back.search}`, { headers: { cookie } });
  expect(res.headers.get("location")).toBe(`${getConfig().appUrl}/dashboard/calendars?connected=${provider}`);
  const list = await api.get("/me/calendar-connections", { token: host.token });
  return list.body.data.find((c: any) => c.provider === provider) as { id: string; calendars: { id: string }[] };
}

async function channelRows(connectionId: string) {
  return (await getDb()).select().from(calendarPushChannels).where(eq(calendarPushChannels.connectionId, connectionId));
}

async function bookableHost() {
  const host = await createHost({ timezone: "UTC" });
  const date = dateIn(4, "UTC");
  await openOnly(host, date, [{ startTime: "09:00", endTime: "17:00" }]);
  const eventType = await createEventType(host, { durationMinutes: 60 });
  const at = (hour: number) => DateTime.fromISO(`${date}T${String(hour).padStart(2, "0")}:00`, { zone: "UTC" }).toJSDate();
  const starts = async () => (await getSlots(host, eventType.slug, date)).map((s: { startTime: string }) => s.startTime);
  return { host, at, starts };
}

const iso = (d: Date) => d.toISOString().replace(".000Z", "Z");
// What a sync reads: the events of each calendar (incremental, events.list with a syncToken).
const eventReads = () => google.requests.filter((r) => r.method === "GET" && r.path.endsWith("/events")).length;
const graphReads = () => microsoft.requests.filter((r) => r.path.endsWith("/calendarView/delta")).length;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("Google watch channels", () => {
  it("are created on connect for every calendar; a notification syncs the connection at once, the sync handshake and forgeries change nothing", async () => {
    useProviders();
    await runningLoop();
    const { host, at, starts } = await bookableHost();
    const connection = await connect(host, "provider_a");

    const channels = google.push.channels.filter((c) => google.calendars.some((cal) => cal.id === c.calendarId) && !c.stopped);
    const rows = await channelRows(connection.id);
    expect(rows).toHaveLength(connection.calendars.length);
    expect(new Set(rows.map((r) => r.channelId))).toEqual(new Set(channels.slice(-rows.length).map((c) => c.id)));
    for (const row of rows) {
      const channel = google.push.channels.find((c) => c.id === row.channelId)!;
      expect(channel.address).toBe(`${SITE}/api/v1/hooks/provider_a`);
      expect(row.resourceId).toBe(channel.resourceId);
      // The token went to Google; only its hash is here.
      expect(channel.token).toMatch(/^[\w-]{43}$/);
      expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(channel.token);
      expect(row.expiresAt.getTime()).toBe(channel.expiration);
    }

    // Google's first message on each channel (`sync`) is answered 200 and syncs nothing.
    const mine = rows.map((r) => google.push.channels.find((c) => c.id === r.channelId)!);
    await vi.waitFor(() => expect(mine.every((c) => c.answers.length === 1)).toBe(true));
    expect(mine.flatMap((c) => c.answers.map((a) => a.status))).toEqual(mine.map(() => 200));
    await pause(100);
    const readsAfterConnect = eventReads();

    // A busy hour appears in the calendar after the connect: no poll has seen it.
    google.addEvent(google.email, { start: at(12), end: at(13) });
    expect(await starts()).toContain(iso(at(12)));

    // Forgeries: a wrong token, a channel we never made, the right channel with another resource.
    const primary = mine.find((c) => c.calendarId === google.email)!;
    const forgeries: Record<string, string>[] = [{ "x-goog-channel-token": "not-the-token" }, { "x-goog-channel-id": randomUUID() }, { "x-goog-resource-id": "another-resource" }];
    for (const overrides of forgeries) {
      const answer = await google.push.send(primary, "exists", overrides);
      expect(answer.status).toBe(200); // answered like a real one: nothing to learn
    }
    const noToken = await site.post("/api/v1/hooks/provider_a", undefined, { headers: { "x-goog-channel-id": primary.id, "x-goog-resource-state": "exists", "x-goog-resource-id": primary.resourceId } });
    expect(noToken.status).toBe(200);
    await pause(200);
    expect(eventReads()).toBe(readsAfterConnect);
    expect(await starts()).toContain(iso(at(12)));

    // Google's real notification: the slot goes within moments, with no poll.
    const sent = Date.now();
    const [answer] = await google.push.notify(google.email);
    expect(answer!.status).toBe(200);
    await vi.waitFor(async () => expect(await starts()).not.toContain(iso(at(12))), { timeout: 5_000, interval: 20 });
    const tookMs = Date.now() - sent;
    expect(tookMs).toBeLessThan(5_000);
    expect(eventReads()).toBeGreaterThan(readsAfterConnect);
  });

  it("refuses a notification without its channel headers as a 400, and answers a well-formed unknown one 200", async () => {
    useProviders();
    const missing = await site.post("/api/v1/hooks/provider_a", undefined, { headers: { "x-goog-resource-state": "exists" } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("validation_error");
    const unknown = await site.post("/api/v1/hooks/provider_a", undefined, {
      headers: { "x-goog-channel-id": randomUUID(), "x-goog-channel-token": "x", "x-goog-resource-state": "exists", "x-goog-resource-id": "r" },
    });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toBeUndefined();
  });

  it("are renewed before they expire: a new channel, then the old one stopped", async () => {
    useProviders();
    const loop = await runningLoop();
    const { host } = await bookableHost();
    const connection = await connect(host, "provider_a");
    const before = await channelRows(connection.id);
    expect(before.length).toBeGreaterThan(0);

    // Nothing is due yet.
    expect(await loop.maintainPush(Date.now())).toEqual({ renewed: 0, created: 0 });

    // A day before the channels end: each is replaced.
    const later = Math.max(...before.map((r) => r.expiresAt.getTime())) - 12 * 3_600_000;
    // (and the channels of earlier tests' connections in this file's database)
    expect((await loop.maintainPush(later)).renewed).toBeGreaterThanOrEqual(before.length);
    const after = await channelRows(connection.id);
    expect(after).toHaveLength(before.length);
    expect(after.some((r) => before.some((b) => b.channelId === r.channelId))).toBe(false);
    for (const old of before) expect(google.push.channels.find((c) => c.id === old.channelId)!.stopped).toBe(true);
    for (const row of after) {
      const channel = google.push.channels.find((c) => c.id === row.channelId)!;
      expect(channel.stopped).toBe(false);
      expect(channel.address).toBe(`${SITE}/api/v1/hooks/provider_a`);
    }
    const stops = google.requests.filter((r) => r.method === "POST" && r.path === "/calendar/v3/channels/stop");
    expect(stops.length).toBeGreaterThanOrEqual(before.length);
  });

  it("are stopped at Google on disconnect; a provider that fails then does not block the disconnect", async () => {
    useProviders();
    const { host } = await bookableHost();
    const connection = await connect(host, "provider_a");
    const rows = await channelRows(connection.id);
    expect(rows.length).toBeGreaterThan(0);
    const res = await api.delete(`/me/calendar-connections/${connection.id}`, { token: host.token });
    expect(res.status).toBeLessThan(300);
    for (const row of rows) expect(google.push.channels.find((c) => c.id === row.channelId)!.stopped).toBe(true);
    expect(await channelRows(connection.id)).toEqual([]);

    const again = await connect(host, "provider_a");
    const live = await channelRows(again.id);
    google.behave({ kind: "fail", status: 503 });
    onTestFinished(() => google.behave({ kind: "ok" }));
    const failing = await api.delete(`/me/calendar-connections/${again.id}`, { token: host.token });
    expect(failing.status).toBeLessThan(300);
    expect(await channelRows(again.id)).toEqual([]);
    const [gone] = await (await getDb()).select().from(calendarConnections).where(eq(calendarConnections.id, again.id));
    expect(gone).toBeUndefined();
    for (const row of live) expect(google.push.channels.find((c) => c.id === row.channelId)!.stopped).toBe(false);
  });

  it("are not made while APP_URL is http; the calendar loop makes them once it is https", async () => {
    useProviders("http://booking.test");
    const loop = await runningLoop();
    const { host } = await bookableHost();
    const watchesBefore = google.push.channels.length;
    const connection = await connect(host, "provider_a");
    expect(google.push.channels.length).toBe(watchesBefore);
    expect(await channelRows(connection.id)).toEqual([]);
    expect(await loop.maintainPush(Date.now())).toEqual({ renewed: 0, created: 0 });

    configure({ appUrl: SITE });
    const { created } = await loop.maintainPush(Date.now());
    expect(created).toBe(connection.calendars.length);
    expect((await channelRows(connection.id)).every((r) => !r.channelId.startsWith("pending-"))).toBe(true);
  });
});

describe("Microsoft Graph subscriptions", () => {
  it("are created after the validation handshake; a notification with the clientState syncs at once, a wrong one changes nothing", async () => {
    useProviders();
    await runningLoop();
    const { host, at, starts } = await bookableHost();
    const handshakesBefore = microsoft.push.handshakes.length;
    const connection = await connect(host, "provider_b");

    const rows = await channelRows(connection.id);
    expect(rows).toHaveLength(connection.calendars.length);
    const handshakes = microsoft.push.handshakes.slice(handshakesBefore);
    expect(handshakes).toHaveLength(rows.length);
    for (const h of handshakes) {
      expect(h.url.startsWith(`${SITE}/api/v1/hooks/provider_b?validationToken=`)).toBe(true);
      expect(h.answer).toMatchObject({ status: 200, contentType: expect.stringMatching(/^text\/plain/) });
      expect(h.answer!.body).toBe(new URL(h.url).searchParams.get("validationToken"));
    }
    for (const row of rows) {
      const subscription = microsoft.push.subscriptions.find((s) => s.id === row.channelId)!;
      expect(subscription).toMatchObject({ notificationUrl: `${SITE}/api/v1/hooks/provider_b`, changeType: "created,updated,deleted" });
      expect(subscription.resource).toMatch(/^me\/calendars\/.+\/events$/);
      expect(row.resourceId).toBeNull();
      expect(subscription.clientState).toMatch(/^[\w-]{43}$/);
      expect(JSON.stringify(row)).not.toContain(subscription.clientState);
      expect(row.expiresAt.getTime()).toBe(Date.parse(subscription.expirationDateTime));
    }
    await pause(100);
    const readsAfterConnect = graphReads();

    const primary = microsoft.calendars.find((c) => c.isDefaultCalendar)!.id;
    microsoft.addEvent(primary, { start: at(12), end: at(13) });
    expect(await starts()).toContain(iso(at(12)));

    const subscription = microsoft.push.subscriptions.find((s) => s.calendarId === primary && rows.some((r) => r.channelId === s.id))!;
    for (const overrides of [{ clientState: "not-the-secret" }, { clientState: null }, { subscriptionId: randomUUID() }]) {
      const answer = await microsoft.push.send(subscription, overrides);
      expect(answer.status).toBe(202);
    }
    await pause(200);
    expect(graphReads()).toBe(readsAfterConnect);
    expect(await starts()).toContain(iso(at(12)));

    const sent = Date.now();
    const [answer] = await microsoft.push.notify(primary);
    expect(answer!.status).toBe(202);
    await vi.waitFor(async () => expect(await starts()).not.toContain(iso(at(12))), { timeout: 5_000, interval: 20 });
    expect(Date.now() - sent).toBeLessThan(5_000);
    expect(graphReads()).toBeGreaterThan(readsAfterConnect);
  });

  it("echoes only a printable validation token, as text/plain", async () => {
    useProviders();
    const token = "Validation: Testing client application reachability <b>x</b>";
    const echoed = await site.post(`/api/v1/hooks/provider_b?validationToken=${encodeURIComponent(token)}`, undefined, { headers: { "content-type": "text/plain" } });
    expect(echoed.status).toBe(200);
    expect(echoed.body).toBe(token);
    expect(echoed.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(echoed.headers.get("x-content-type-options")).toBe("nosniff");
    const bad = await site.post(`/api/v1/hooks/provider_b?validationToken=${encodeURIComponent("a\r\nSet-Cookie: x=1")}`);
    expect(bad.status).toBe(400);
    const long = await site.post(`/api/v1/hooks/provider_b?validationToken=${"a".repeat(1025)}`);
    expect(long.status).toBe(400);
  });

  it("are renewed by PATCH before they expire, and deleted on disconnect", async () => {
    useProviders();
    const loop = await runningLoop();
    const { host } = await bookableHost();
    const connection = await connect(host, "provider_b");
    const before = await channelRows(connection.id);
    expect(before.length).toBeGreaterThan(0);

    const later = Math.max(...before.map((r) => r.expiresAt.getTime())) - 12 * 3_600_000;
    const patchesBefore = microsoft.requests.filter((r) => r.method === "PATCH" && before.some((b) => r.path === `/v1.0/subscriptions/${b.channelId}`)).length;
    // (and the channels of earlier tests' connections in this file's database)
    expect((await loop.maintainPush(later)).renewed).toBeGreaterThanOrEqual(before.length);
    const patches = microsoft.requests.filter((r) => r.method === "PATCH" && before.some((b) => r.path === `/v1.0/subscriptions/${b.channelId}`));
    expect(patches.length - patchesBefore).toBe(before.length);
    for (const p of patches.slice(patchesBefore)) expect(Date.parse(JSON.parse(p.body).expirationDateTime)).toBeGreaterThan(Date.now() + 2 * DAY);
    const after = await channelRows(connection.id);
    expect(after.map((r) => r.channelId).sort()).toEqual(before.map((r) => r.channelId).sort());
    for (const row of after) expect(row.expiresAt.getTime()).toBe(Date.parse(microsoft.push.subscriptions.find((s) => s.id === row.channelId)!.expirationDateTime));

    const res = await api.delete(`/me/calendar-connections/${connection.id}`, { token: host.token });
    expect(res.status).toBeLessThan(300);
    for (const row of after) expect(microsoft.push.subscriptions.find((s) => s.id === row.channelId)!.deleted).toBe(true);
    expect(await channelRows(connection.id)).toEqual([]);
  });
});
