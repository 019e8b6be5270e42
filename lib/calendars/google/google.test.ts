import { createHash, randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getConfig, parseConfig, setConfig, type Config } from "@/lib/config";
import { startFakeGoogle, type FakeGoogle } from "@/tests/support/fake-google";
import { googleEventBusy, googleEventId, googleProvider } from ".";
import { CalendarError, type AccessToken, type CalendarEvent, type OAuthGrant } from "../types";

// provider_a against a local server speaking Google's OAuth and Calendar v3 wire formats: the
// real googleapis / google-auth-library code runs, only the address differs.

const REDIRECT_URI = "http://booking.test/api/v1/oauth/callback/provider_a";
const HOUR = 3_600_000;

let fake: FakeGoogle;
let original: Config;

beforeAll(async () => {
  original = getConfig();
  fake = await startFakeGoogle({ calendarListPageSize: 2, eventsPageSize: 2 });
});
afterEach(() => {
  fake.behave({ kind: "ok" });
  setConfig(original);
});
afterAll(async () => {
  setConfig(original);
  await fake?.close();
});

function useFake(extra: Record<string, string> = {}) {
  setConfig(
    parseConfig({
      NODE_ENV: "test",
      APP_URL: "http://booking.test",
      DATA_DIR: original.dataDir,
      JWT_SECRET: randomBytes(32).toString("hex"),
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      ...fake.env,
      ...extra,
    }),
  );
}

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** The whole consent round trip, as the service and the host's browser do it. */
async function connect(): Promise<OAuthGrant> {
  const { verifier, challenge } = pkce();
  const back = new URL(await fake.consent(googleProvider.authorizeUrl({ state: "s", redirectUri: REDIRECT_URI, codeChallenge: challenge })));
  return googleProvider.exchangeCode({ code: back.searchParams.get("code")!, redirectUri: REDIRECT_URI, codeVerifier: verifier });
}

/** A client for the grant, with its access token unless another (or none) is given. */
function clientFor(grant: OAuthGrant, ...given: [access: AccessToken | undefined] | []) {
  const access = given.length > 0 ? given[0] : grant.access;
  const stored: AccessToken[] = [];
  const client = googleProvider.client({ refreshToken: grant.refreshToken, access, onAccessToken: async (token) => void stored.push(token) });
  return { client, stored };
}

const count = (method: string, path: string | RegExp) =>
  fake.requests.filter((r) => r.method === method && (typeof path === "string" ? r.path === path : path.test(r.path))).length;

async function failure(promise: Promise<unknown>): Promise<CalendarError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(CalendarError);
  const calendarError = error as CalendarError;
  // Whatever went wrong, no credential is ever in the message.
  expect(calendarError.message).not.toContain(fake.clientSecret);
  expect(calendarError.message).not.toMatch(/ya29\.|1\/\/0g/);
  return calendarError;
}

function booking(uid: string, start: number): CalendarEvent {
  return {
    uid,
    title: "Intro call",
    description: "Booked online",
    location: "https://meet.example/abc",
    start,
    end: start + HOUR,
    timeZone: "Europe/Berlin",
    attendees: [{ name: "Guest", email: "guest@example.com" }],
  };
}

describe("OAuth", () => {
  it("is configured only with a client id and secret", () => {
    useFake();
    expect(googleProvider.configured()).toBe(true);
    useFake({ GOOGLE_CLIENT_SECRET: "" });
    expect(googleProvider.configured()).toBe(false);
  });

  it("authorize URL → consent → code exchange gives a refresh token, an access token and the account's address", async () => {
    useFake();
    const { verifier, challenge } = pkce();
    const url = new URL(googleProvider.authorizeUrl({ state: "st4te", redirectUri: REDIRECT_URI, codeChallenge: challenge }));
    expect(`${url.origin}${url.pathname}`).toBe(fake.env.GOOGLE_AUTH_URL);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: fake.clientId,
      redirect_uri: REDIRECT_URI,
      response_type: "code",
      access_type: "offline",
      prompt: "consent",
      include_granted_scopes: "true",
      state: "st4te",
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    expect(url.searchParams.get("scope")!.split(" ").sort()).toEqual([
      "https://www.googleapis.com/auth/calendar.events",
      "https://www.googleapis.com/auth/calendar.readonly",
    ]);

    const back = new URL(await fake.consent(url.toString()));
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get("state")).toBe("st4te");
    const before = Date.now();
    const grant = await googleProvider.exchangeCode({ code: back.searchParams.get("code")!, redirectUri: REDIRECT_URI, codeVerifier: verifier });
    expect(grant.email).toBe(fake.email);
    expect(grant.refreshToken).toMatch(/^1\/\/0g/);
    expect(grant.access.accessToken).toMatch(/^ya29\./);
    expect(grant.access.expiresAt).toBeGreaterThanOrEqual(before + 3_599_000);
    expect(grant.access.expiresAt).toBeLessThanOrEqual(Date.now() + 3_600_000);
  });

  it("a wrong PKCE verifier or a used code is rejected", async () => {
    useFake();
    const { verifier, challenge } = pkce();
    const back = new URL(await fake.consent(googleProvider.authorizeUrl({ state: "s", redirectUri: REDIRECT_URI, codeChallenge: challenge })));
    const code = back.searchParams.get("code")!;
    const wrong = await failure(googleProvider.exchangeCode({ code, redirectUri: REDIRECT_URI, codeVerifier: pkce().verifier }));
    expect(wrong).toMatchObject({ kind: "rejected", status: 400 });
    expect(wrong.message).toContain("invalid_grant");
    // The fake, like Google, burns a code on its first use.
    expect((await failure(googleProvider.exchangeCode({ code, redirectUri: REDIRECT_URI, codeVerifier: verifier }))).kind).toBe("rejected");
  });

  it("no refresh token in the answer is an error telling the host to remove the app's access", async () => {
    useFake();
    await connect(); // consented before: without prompt=consent, Google sends no refresh token
    const { verifier, challenge } = pkce();
    const url = new URL(googleProvider.authorizeUrl({ state: "s", redirectUri: REDIRECT_URI, codeChallenge: challenge }));
    url.searchParams.delete("prompt");
    const back = new URL(await fake.consent(url.toString()));
    const error = await failure(googleProvider.exchangeCode({ code: back.searchParams.get("code")!, redirectUri: REDIRECT_URI, codeVerifier: verifier }));
    expect(error.kind).toBe("rejected");
    expect(error.message).toMatch(/remove this app's access.*connect again/i);
  });

  it("a consent without both calendar permissions connects nothing", async () => {
    useFake();
    const { verifier, challenge } = pkce();
    const url = new URL(googleProvider.authorizeUrl({ state: "s", redirectUri: REDIRECT_URI, codeChallenge: challenge }));
    url.searchParams.set("scope", "https://www.googleapis.com/auth/calendar.readonly"); // the person unticked "edit events"
    const back = new URL(await fake.consent(url.toString()));
    const error = await failure(googleProvider.exchangeCode({ code: back.searchParams.get("code")!, redirectUri: REDIRECT_URI, codeVerifier: verifier }));
    expect(error.kind).toBe("rejected");
    expect(error.message).toMatch(/allow both calendar permissions/);
  });
});

describe("reading", () => {
  it("lists every calendar across pages, with primary and write access", async () => {
    useFake();
    const { client } = clientFor(await connect());
    const pages = count("GET", "/calendar/v3/users/me/calendarList");
    const calendars = await client.listCalendars();
    expect(count("GET", "/calendar/v3/users/me/calendarList") - pages).toBe(2); // page size 2, three calendars
    expect(calendars).toEqual([
      { externalId: fake.email, name: fake.email, isPrimary: true, writable: true },
      { externalId: fake.calendars[1]!.id, name: "Team", isPrimary: false, writable: true },
      { externalId: "en.usa#holiday@group.v.calendar.google.com", name: "Holidays in United States", isPrimary: false, writable: false },
    ]);
  });

  it("busy time comes from free/busy: transparent events are free, unknown calendars are left out", async () => {
    useFake();
    const { client } = clientFor(await connect());
    const day = Date.UTC(2031, 2, 3);
    fake.addEvent(fake.email, { start: day + 9 * HOUR, end: day + 10 * HOUR });
    fake.addEvent(fake.email, { start: day + 12 * HOUR, end: day + 13 * HOUR, transparent: true });
    fake.addEvent(fake.email, { start: day + 30 * HOUR, end: day + 31 * HOUR }); // outside the window
    const team = fake.calendars[1]!.id;
    const busy = await client.busy([fake.email, team, "gone@group.calendar.google.com"], { from: day, to: day + 24 * HOUR, timeZone: "Europe/Berlin" });
    expect([...busy.keys()]).toEqual([fake.email, team]);
    expect(busy.get(fake.email)).toEqual([{ start: day + 9 * HOUR, end: day + 10 * HOUR }]);
    expect(busy.get(team)).toEqual([]);
  });

  it("asks for at most 50 calendars per free/busy request", async () => {
    useFake();
    const { client } = clientFor(await connect());
    const day = Date.UTC(2031, 3, 7);
    fake.addEvent(fake.email, { start: day + HOUR, end: day + 2 * HOUR });
    const ids = [...Array.from({ length: 50 }, (_, i) => `other-${i}@example.com`), fake.email];
    const before = count("POST", "/calendar/v3/freeBusy");
    const busy = await client.busy(ids, { from: day, to: day + 24 * HOUR, timeZone: "UTC" });
    expect(count("POST", "/calendar/v3/freeBusy") - before).toBe(2);
    expect(busy.get(fake.email)).toEqual([{ start: day + HOUR, end: day + 2 * HOUR }]);
    expect(busy.size).toBe(1);
  });
});

describe("incremental reads (events.list with syncToken)", () => {
  const range = { from: Date.UTC(2031, 5, 1), to: Date.UTC(2031, 6, 1), timeZone: "Europe/Berlin" };
  const spans = (ranges: { start: number; end: number }[] | undefined) => (ranges ?? []).map((r) => [new Date(r.start).toISOString(), new Date(r.end).toISOString()]);

  it("an event as busy time: cancelled, transparent and declined are free; all-day is the host's day; cut to the span", () => {
    const day = { start: { date: "2031-06-10" }, end: { date: "2031-06-11" } };
    expect(spans(googleEventBusy({ id: "a", ...day }, range))).toEqual([["2031-06-09T22:00:00.000Z", "2031-06-10T22:00:00.000Z"]]);
    expect(googleEventBusy({ id: "a", ...day, transparency: "transparent" }, range)).toEqual([]);
    expect(googleEventBusy({ id: "a", ...day, status: "cancelled" }, range)).toEqual([]);
    expect(googleEventBusy({ id: "a", ...day, attendees: [{ self: true, responseStatus: "declined" }] }, range)).toEqual([]);
    const across = { id: "b", start: { dateTime: "2031-05-31T23:00:00Z" }, end: { dateTime: "2031-06-01T01:00:00Z" } };
    expect(googleEventBusy(across, range)).toEqual([{ start: range.from, end: range.from + HOUR, eventId: "b" }]);
  });

  it("a full read pages to a sync token; later reads bring only changes (moved, cancelled); a 410 reads whole again", async () => {
    useFake();
    const { client } = clientFor(await connect());
    const calendarId = `sync-${randomBytes(4).toString("hex")}@group.calendar.google.com`;
    fake.calendars.push({ id: calendarId, summary: "Sync", accessRole: "owner" });
    try {
      const day = Date.UTC(2031, 5, 10);
      const a = fake.addEvent(calendarId, { start: day + 9 * HOUR, end: day + 10 * HOUR });
      const b = fake.addEvent(calendarId, { start: day + 11 * HOUR, end: day + 12 * HOUR });
      const free = fake.addEvent(calendarId, { start: day + 13 * HOUR, end: day + 14 * HOUR, transparent: true });
      fake.addEvent(calendarId, { start: Date.UTC(2031, 8, 1), end: Date.UTC(2031, 8, 1) + HOUR }); // past the span

      const lists = () => fake.requests.filter((r) => r.method === "GET" && decodeURIComponent(r.path) === `/calendar/v3/calendars/${calendarId}/events`);
      const full = await client.changes(calendarId, { ...range, state: null });
      expect(full.full).toBe(true);
      expect(lists()).toHaveLength(2); // three events in the span, two a page
      expect(lists()[0]!.query.get("singleEvents")).toBe("true");
      expect(spans(full.upserts.get(a.id))).toEqual([["2031-06-10T09:00:00.000Z", "2031-06-10T10:00:00.000Z"]]);
      expect(full.upserts.get(free.id)).toEqual([]);
      expect(full.upserts.size).toBe(3);

      const quiet = await client.changes(calendarId, { ...range, state: full.state });
      expect(quiet.full).toBe(false);
      expect(quiet.upserts.size + quiet.removed.length).toBe(0);
      expect(lists()).toHaveLength(3);
      expect(lists()[2]!.query.get("syncToken")).toBe(full.state);
      expect(lists()[2]!.query.has("timeMin")).toBe(false);

      fake.changeEvent(calendarId, a.id, { start: { dateTime: new Date(day + 15 * HOUR).toISOString() }, end: { dateTime: new Date(day + 16 * HOUR).toISOString() } });
      fake.deleteEvent(calendarId, b.id);
      const changed = await client.changes(calendarId, { ...range, state: quiet.state });
      expect(changed.full).toBe(false);
      expect([...changed.upserts.keys()]).toEqual([a.id]);
      expect(spans(changed.upserts.get(a.id))).toEqual([["2031-06-10T15:00:00.000Z", "2031-06-10T16:00:00.000Z"]]);
      expect(changed.removed).toEqual([b.id]);

      fake.expireSyncTokens();
      const again = await client.changes(calendarId, { ...range, state: changed.state });
      expect(again.full).toBe(true);
      expect([...again.upserts.keys()].sort()).toEqual([a.id, free.id].sort());
    } finally {
      fake.calendars.splice(fake.calendars.findIndex((c) => c.id === calendarId), 1);
    }
  });
});

describe("tokens", () => {
  it("an access token the server no longer honours is refreshed, and the new one handed back to store", async () => {
    useFake();
    const grant = await connect();
    fake.expireAccessTokens();
    const { client, stored } = clientFor(grant);
    const refreshes = count("POST", "/token");
    expect((await client.listCalendars()).length).toBe(3);
    expect(count("POST", "/token") - refreshes).toBe(1);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.accessToken).not.toBe(grant.access.accessToken);
    expect(stored[0]!.expiresAt).toBeGreaterThan(Date.now() + 3_500_000);
    // The fresh token is used from then on: no further refresh.
    await client.listCalendars();
    expect(count("POST", "/token") - refreshes).toBe(1);
  });

  it("a stored token past its expiry, or none, is refreshed before the first call", async () => {
    useFake();
    const grant = await connect();
    for (const access of [undefined, { accessToken: grant.access.accessToken, expiresAt: Date.now() - 1000 }]) {
      const { client, stored } = clientFor(grant, access);
      const unauthorized = fake.requests.length;
      await client.listCalendars();
      expect(stored).toHaveLength(1);
      expect(fake.requests.slice(unauthorized).map((r) => r.path)[0]).toBe("/token");
    }
  });

  it("a revoked grant (invalid_grant) is an auth error", async () => {
    useFake();
    const grant = await connect();
    fake.revokeGrant();
    for (const access of [grant.access, undefined]) {
      const { client, stored } = clientFor(grant, access);
      const error = await failure(client.listCalendars());
      expect(error).toMatchObject({ kind: "auth", status: 400 });
      expect(error.message).not.toContain(grant.refreshToken);
      expect(stored).toEqual([]);
    }
  });
});

describe("failures", () => {
  it.each([
    ["429", { kind: "rateLimit" }, { kind: "rate_limited", status: 429, retryAfterMs: 7000 }],
    ["403 rateLimitExceeded", { kind: "rateLimit", status: 403 }, { kind: "rate_limited", status: 403, retryAfterMs: 7000 }],
    ["500", { kind: "fail", status: 500 }, { kind: "unavailable", status: 500 }],
    ["503", { kind: "fail", status: 503 }, { kind: "unavailable", status: 503 }],
    ["404", { kind: "fail", status: 404 }, { kind: "not_found", status: 404 }],
    ["400", { kind: "fail", status: 400 }, { kind: "rejected", status: 400 }],
  ] as const)("%s → %o, tried once (the job queue retries, not gaxios)", async (_label, mode, expected) => {
    useFake();
    const { client } = clientFor(await connect());
    fake.behave(mode);
    // A GET: the method gaxios would retry by itself, were it allowed to.
    const before = count("GET", "/calendar/v3/users/me/calendarList");
    const error = await failure(client.listCalendars());
    expect(error).toMatchObject(expected);
    expect(count("GET", "/calendar/v3/users/me/calendarList") - before).toBe(1);
  });

  it("a failing token service is unavailable, also tried once", async () => {
    useFake();
    const grant = await connect();
    fake.behave({ kind: "fail", status: 503, at: "token" });
    const before = count("POST", "/token");
    const { client, stored } = clientFor(grant, undefined);
    expect(await failure(client.listCalendars())).toMatchObject({ kind: "unavailable", status: 503 });
    expect(count("POST", "/token") - before).toBe(1);
    expect(stored).toEqual([]);
  });

  it("a server that never answers is unavailable after CALENDAR_TIMEOUT_MS", async () => {
    useFake({ CALENDAR_TIMEOUT_MS: "500" });
    const { client } = clientFor(await connect());
    fake.behave({ kind: "hang" });
    const started = performance.now();
    const error = await failure(client.listCalendars());
    const elapsed = performance.now() - started;
    expect(error.kind).toBe("unavailable");
    expect(error.message).toContain("500 ms");
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(2000);
  });

  it("an unreachable server is unavailable", async () => {
    useFake();
    const grant = await connect();
    useFake({ GOOGLE_API_BASE_URL: "http://127.0.0.1:1" });
    expect((await failure(clientFor(grant).client.listCalendars())).kind).toBe("unavailable");
  });
});

describe("writing", () => {
  it("creates an event with an id derived from the uid; the same uid again updates that one event", async () => {
    useFake();
    const { client } = clientFor(await connect());
    const uid = `bk_${randomBytes(6).toString("hex")}@booking.test`;
    const start = Date.UTC(2031, 5, 2, 10);
    const first = await client.createEvent(fake.email, booking(uid, start));
    expect(first.eventId).toBe(googleEventId(uid));
    expect(first.eventId).toMatch(/^[a-v0-9]{5,1024}$/);
    const again = await client.createEvent(fake.email, { ...booking(uid, start), title: "Intro call (again)" });
    expect(again).toEqual(first);

    const mine = fake.events(fake.email).filter((e) => e.id === first.eventId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      summary: "Intro call (again)",
      description: "Booked online",
      location: "https://meet.example/abc",
      start: { dateTime: new Date(start).toISOString(), timeZone: "Europe/Berlin" },
      end: { dateTime: new Date(start + HOUR).toISOString(), timeZone: "Europe/Berlin" },
      attendees: [{ email: "guest@example.com", displayName: "Guest" }],
    });
    // Our own emails invite the guest: Google must send none.
    const writes = fake.requests.filter((r) => r.method !== "GET" && r.path.includes("/events"));
    expect(writes.length).toBeGreaterThanOrEqual(3); // insert, insert (409), update
    expect(writes.every((r) => r.query.get("sendUpdates") === "none")).toBe(true);
  });

  it("moves an event, deletes it, and deleting again (or an unknown id) is fine", async () => {
    useFake();
    const { client } = clientFor(await connect());
    const uid = `bk_${randomBytes(6).toString("hex")}@booking.test`;
    const start = Date.UTC(2031, 6, 1, 8);
    const { eventId } = await client.createEvent(fake.email, booking(uid, start));
    await client.updateEvent(fake.email, eventId, booking(uid, start + 3 * HOUR));
    const [moved] = fake.events(fake.email).filter((e) => e.id === eventId);
    expect(Date.parse(moved!.start.dateTime)).toBe(start + 3 * HOUR);
    expect(Date.parse(moved!.end.dateTime)).toBe(start + 4 * HOUR);

    await client.deleteEvent(fake.email, eventId);
    expect(fake.events(fake.email).some((e) => e.id === eventId)).toBe(false);
    await client.deleteEvent(fake.email, eventId); // 410 Gone
    await client.deleteEvent(fake.email, "unknown00000"); // 404

    // Written again after a delete (a retried job): the cancelled event comes back.
    await client.createEvent(fake.email, booking(uid, start));
    expect(fake.events(fake.email).filter((e) => e.id === eventId)).toHaveLength(1);
  });

  it("updating a missing event is not_found; writing to a read-only calendar is rejected", async () => {
    useFake();
    const { client } = clientFor(await connect());
    const event = booking("x@booking.test", Date.UTC(2031, 7, 1, 9));
    expect((await failure(client.updateEvent(fake.email, "missing0000", event))).kind).toBe("not_found");
    expect(await failure(client.createEvent("en.usa#holiday@group.v.calendar.google.com", event))).toMatchObject({ kind: "rejected", status: 403 });
  });
});
