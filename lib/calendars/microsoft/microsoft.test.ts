import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getConfig, parseConfig, setConfig, type Config } from "@/lib/config";
import { startFakeMicrosoft, type FakeMicrosoft } from "@/tests/support/fake-microsoft";
import { microsoftProvider, microsoftTransactionId } from ".";
import { CalendarError, type AccessToken, type CalendarEvent } from "../types";

// provider_b's real client code against a local server speaking Microsoft's wire formats.

const REDIRECT_URI = "http://booking.test/api/v1/oauth/callback/provider_b";
const HOUR = 3600_000;

let fake: FakeMicrosoft;
let saved: Config;
beforeAll(async () => {
  saved = getConfig();
  fake = await startFakeMicrosoft();
});
afterEach(() => {
  fake.behave({ kind: "ok" });
  fake.behave({ kind: "ok" }, "token");
  setConfig(saved);
});
afterAll(async () => {
  setConfig(saved);
  await fake?.close();
});

/** Points the provider at `server` (the shared fake unless told). */
function useFake(server: FakeMicrosoft = fake, extra: Record<string, string> = {}) {
  setConfig(
    parseConfig({
      NODE_ENV: "test",
      APP_URL: "http://booking.test",
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-microsoft-")),
      JWT_SECRET: randomBytes(32).toString("hex"),
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      CALENDAR_TIMEOUT_MS: "5000",
      ...server.env,
      ...extra,
    }),
  );
}

/** The whole consent round trip, as the app's authorize and callback endpoints run it. */
async function connect(server: FakeMicrosoft = fake) {
  const verifier = randomBytes(32).toString("base64url");
  const url = microsoftProvider.authorizeUrl({
    state: "state-123",
    redirectUri: REDIRECT_URI,
    codeChallenge: createHash("sha256").update(verifier).digest("base64url"),
  });
  const back = new URL(await server.consent(url));
  expect(back.searchParams.get("state")).toBe("state-123");
  return microsoftProvider.exchangeCode({ code: back.searchParams.get("code")!, redirectUri: REDIRECT_URI, codeVerifier: verifier });
}

async function connectedClient() {
  const grant = await connect();
  const stored: AccessToken[] = [];
  const client = microsoftProvider.client({ refreshToken: grant.refreshToken, access: grant.access, onAccessToken: async (t) => void stored.push(t) });
  return { grant, client, stored };
}

const primaryId = () => fake.calendars.find((c) => c.isDefaultCalendar)!.id;
const at = (iso: string) => Date.parse(iso);
const tokenRequests = () => fake.requests.filter((r) => r.path === "/common/oauth2/v2.0/token").map((r) => new URLSearchParams(r.body));

async function failure(promise: Promise<unknown>): Promise<CalendarError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CalendarError);
  const e = error as CalendarError;
  expect(e.message).not.toContain(fake.clientSecret);
  expect(e.message).not.toMatch(/EwB|M\.C5/); // the fake's token prefixes
  return e;
}

describe("Microsoft OAuth", () => {
  it("builds the consent URL, and a code exchange yields a refresh token, an access token and the account's address", async () => {
    useFake();
    expect(microsoftProvider.configured()).toBe(true);
    const url = new URL(microsoftProvider.authorizeUrl({ state: "s", redirectUri: REDIRECT_URI, codeChallenge: "c".repeat(43) }));
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/common/oauth2/v2.0/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: fake.clientId,
      response_type: "code",
      response_mode: "query",
      redirect_uri: REDIRECT_URI,
      scope: "offline_access User.Read Calendars.ReadWrite",
      code_challenge_method: "S256",
      prompt: "select_account",
    });

    const before = Date.now();
    const grant = await connect();
    expect(grant.email).toBe(fake.email);
    expect(grant.refreshToken).toBeTruthy();
    expect(grant.access.accessToken).toBeTruthy();
    expect(grant.access.expiresAt).toBeGreaterThanOrEqual(before + 89_000);
    expect(grant.access.expiresAt).toBeLessThanOrEqual(Date.now() + 90_000);
    const [exchange] = tokenRequests().slice(-1);
    expect(exchange?.get("grant_type")).toBe("authorization_code");
    expect(exchange?.get("scope")).toContain("offline_access");
  });

  it("is not configured without a client id and secret", () => {
    setConfig(parseConfig({ NODE_ENV: "test", DATA_DIR: saved.dataDir, JWT_SECRET: "x".repeat(32), ENCRYPTION_KEY: randomBytes(32).toString("base64") }));
    expect(microsoftProvider.configured()).toBe(false);
    expect(() => microsoftProvider.authorizeUrl({ state: "s", redirectUri: REDIRECT_URI, codeChallenge: "c".repeat(43) })).toThrow(CalendarError);
  });

  it("takes the user principal name when the account has no mail address", async () => {
    const noMail = await startFakeMicrosoft({ mail: null });
    try {
      useFake(noMail);
      const grant = await connect(noMail);
      expect(grant.email).toBe(noMail.email);
      expect(grant.email).toMatch(/@contoso\.example$/);
    } finally {
      await noMail.close();
    }
  });

  it("a wrong PKCE verifier or a code used twice is refused", async () => {
    useFake();
    const verifier = randomBytes(32).toString("base64url");
    const url = microsoftProvider.authorizeUrl({ state: "s", redirectUri: REDIRECT_URI, codeChallenge: createHash("sha256").update(verifier).digest("base64url") });
    const code = new URL(await fake.consent(url)).searchParams.get("code")!;
    const wrong = await failure(microsoftProvider.exchangeCode({ code, redirectUri: REDIRECT_URI, codeVerifier: `${verifier}x` }));
    expect(wrong).toMatchObject({ kind: "auth", status: 400 });
    expect(wrong.message).toContain("AADSTS501481");
    await microsoftProvider.exchangeCode({ code, redirectUri: REDIRECT_URI, codeVerifier: verifier });
    expect(await failure(microsoftProvider.exchangeCode({ code, redirectUri: REDIRECT_URI, codeVerifier: verifier }))).toMatchObject({ kind: "auth" });
  });
});

describe("Microsoft calendar client", () => {
  it("lists every calendar, following @odata.nextLink", async () => {
    useFake();
    const { client } = await connectedClient();
    const pagesBefore = fake.requests.filter((r) => r.path === "/v1.0/me/calendars").length;
    const calendars = await client.listCalendars();
    expect(fake.requests.filter((r) => r.path === "/v1.0/me/calendars").length - pagesBefore).toBe(2); // 3 calendars, 2 a page
    expect(calendars).toEqual(
      fake.calendars.map((c) => ({ externalId: c.id, name: c.name, isPrimary: c.isDefaultCalendar, writable: c.canEdit })),
    );
    expect(calendars.filter((c) => c.isPrimary)).toHaveLength(1);
  });

  it("reads busy time: free, working elsewhere and cancelled events are not busy; all-day events block the host's day", async () => {
    useFake();
    const { client } = await connectedClient();
    const primary = primaryId();
    const holidays = fake.calendars.find((c) => c.name === "United States holidays")!.id;
    const busy = fake.addEvent(primary, { start: at("2030-03-04T10:00:00Z"), end: at("2030-03-04T11:00:00Z") });
    const tentative = fake.addEvent(primary, { start: at("2030-03-04T12:00:00Z"), end: at("2030-03-04T12:30:00Z"), showAs: "tentative" });
    const oof = fake.addEvent(primary, { start: at("2030-03-04T13:00:00Z"), end: at("2030-03-04T14:00:00Z"), showAs: "oof" });
    fake.addEvent(primary, { start: at("2030-03-04T15:00:00Z"), end: at("2030-03-04T16:00:00Z"), showAs: "free" });
    fake.addEvent(primary, { start: at("2030-03-04T16:00:00Z"), end: at("2030-03-04T17:00:00Z"), showAs: "workingElsewhere" });
    fake.addEvent(primary, { start: at("2030-03-04T17:00:00Z"), end: at("2030-03-04T18:00:00Z"), isCancelled: true });
    const late = fake.addEvent(primary, { start: at("2030-03-06T23:00:00Z"), end: at("2030-03-07T02:00:00Z") }); // runs past the window
    fake.addEvent(primary, { start: at("2030-03-08T09:00:00Z"), end: at("2030-03-08T10:00:00Z") }); // after the window
    const day = fake.addEvent(holidays, { start: "2030-03-05", end: "2030-03-06", isAllDay: true, showAs: "busy" });

    const range = { from: at("2030-03-04T00:00:00Z"), to: at("2030-03-07T00:00:00Z"), timeZone: "America/New_York" };
    const result = await client.busy([primary, holidays, "AAMkGONE="], range);
    expect(result.get(primary)).toEqual([
      { start: at("2030-03-04T10:00:00Z"), end: at("2030-03-04T11:00:00Z"), eventId: busy.id },
      { start: at("2030-03-04T12:00:00Z"), end: at("2030-03-04T12:30:00Z"), eventId: tentative.id },
      { start: at("2030-03-04T13:00:00Z"), end: at("2030-03-04T14:00:00Z"), eventId: oof.id },
      { start: at("2030-03-06T23:00:00Z"), end: range.to, eventId: late.id },
    ]);
    // 5 March in New York: 05:00Z to 05:00Z the next day (EST, before the switch on 10 March).
    expect(result.get(holidays)).toEqual([{ start: at("2030-03-05T05:00:00Z"), end: at("2030-03-06T05:00:00Z"), eventId: day.id }]);
    expect(result.has("AAMkGONE=")).toBe(false); // a calendar Graph does not know has no answer

    const view = fake.requests.filter((r) => r.path.endsWith("/calendarView"));
    expect(view.every((r) => r.headers.prefer === 'outlook.timezone="UTC"')).toBe(true);
    expect(view.some((r) => r.query.has("$skip"))).toBe(true); // the 8 primary events came in pages
    expect(view[0]!.query.get("$select")).toBe("start,end,showAs,isCancelled,isAllDay,id");
  });

  it("refreshes a token about to expire, and one Graph refuses; new access tokens are handed back and the rotated refresh token is used", async () => {
    useFake();
    const grant = await connect();
    const stored: AccessToken[] = [];
    const rotated: string[] = [];
    const client = microsoftProvider.client({
      refreshToken: grant.refreshToken,
      access: { accessToken: grant.access.accessToken, expiresAt: Date.now() + 30_000 }, // inside the one-minute margin
      onAccessToken: async (t) => void stored.push(t),
      onRefreshToken: async (t) => void rotated.push(t),
    });
    const before = tokenRequests().length;
    await Promise.all([client.listCalendars(), client.listCalendars()]); // share one refresh
    expect(stored).toHaveLength(1);
    expect(stored[0]!.accessToken).not.toBe(grant.access.accessToken);
    expect(stored[0]!.expiresAt).toBeGreaterThan(Date.now() + 60_000);
    const [first] = tokenRequests().slice(before);
    expect(first?.get("grant_type")).toBe("refresh_token");
    expect(first?.get("refresh_token")).toBe(grant.refreshToken);
    expect(tokenRequests().length - before).toBe(1);

    await client.listCalendars(); // the fresh token is used as it is
    expect(stored).toHaveLength(1);

    fake.expireAccessTokens(); // Graph now answers 401 to a token the client believes valid
    await client.listCalendars();
    expect(stored).toHaveLength(2);
    const [, second] = tokenRequests().slice(before);
    expect(second?.get("refresh_token")).not.toBe(grant.refreshToken); // the one Microsoft rotated to
    // Each rotated refresh token is handed back to be stored, so the stored grant never ages out.
    expect(rotated).toHaveLength(2);
    expect(second?.get("refresh_token")).toBe(rotated[0]);
  });

  it("a revoked grant is an auth failure", async () => {
    useFake();
    const { client } = await connectedClient();
    fake.revokeGrant();
    fake.expireAccessTokens();
    const e = await failure(client.listCalendars());
    expect(e).toMatchObject({ kind: "auth", status: 400 });
    expect(e.message).toContain("invalid_grant");
  });

  it("maps 429, 5xx and hanging to rate_limited and unavailable", async () => {
    useFake();
    const { client } = await connectedClient();
    fake.behave({ kind: "rateLimit" });
    expect(await failure(client.listCalendars())).toMatchObject({ kind: "rate_limited", status: 429, retryAfterMs: 7000 });
    fake.behave({ kind: "fail", status: 500 });
    expect(await failure(client.busy([primaryId()], { from: Date.now(), to: Date.now() + HOUR, timeZone: "UTC" }))).toMatchObject({ kind: "unavailable", status: 500 });
    fake.behave({ kind: "fail", status: 403 });
    expect(await failure(client.listCalendars())).toMatchObject({ kind: "rejected", status: 403 });
    fake.behave({ kind: "ok" });

    fake.expireAccessTokens();
    fake.behave({ kind: "fail", status: 503 }, "token");
    expect(await failure(client.listCalendars())).toMatchObject({ kind: "unavailable", status: 503 });
  });

  it("gives up on a Graph that never answers after CALENDAR_TIMEOUT_MS", async () => {
    useFake(fake, { CALENDAR_TIMEOUT_MS: "500" });
    const { client } = await connectedClient();
    fake.behave({ kind: "hang" });
    const started = performance.now();
    const e = await failure(client.listCalendars());
    const took = performance.now() - started;
    expect(e.kind).toBe("unavailable");
    expect(e.message).toContain("500 ms");
    expect(took).toBeGreaterThanOrEqual(450);
    expect(took).toBeLessThan(2_000);
  });

  it("a server that cannot be reached is unavailable", async () => {
    const gone = await startFakeMicrosoft();
    useFake(gone);
    const grant = await connect(gone);
    await gone.close();
    const client = microsoftProvider.client({ refreshToken: grant.refreshToken, access: grant.access, onAccessToken: async () => {} });
    expect(await failure(client.listCalendars())).toMatchObject({ kind: "unavailable", status: undefined });
  });
});

describe("Microsoft incremental reads (calendarView/delta)", () => {
  it("a full read follows nextLinks to a deltaLink; later reads bring only changes (moved, free, @removed); a 410 reads whole again", async () => {
    useFake();
    const { client } = await connectedClient();
    const calendarId = `AAMkSYNC${randomBytes(8).toString("hex")}=`;
    fake.calendars.push({ id: calendarId, name: "Sync", isDefaultCalendar: false, canEdit: true });
    try {
      const a = fake.addEvent(calendarId, { start: at("2030-05-06T09:00:00Z"), end: at("2030-05-06T10:00:00Z") });
      const b = fake.addEvent(calendarId, { start: at("2030-05-06T11:00:00Z"), end: at("2030-05-06T12:00:00Z") });
      const c = fake.addEvent(calendarId, { start: at("2030-05-07T11:00:00Z"), end: at("2030-05-07T12:00:00Z") });
      const range = { from: at("2030-05-01T00:00:00Z"), to: at("2030-06-01T00:00:00Z"), timeZone: "UTC" };
      const deltas = () => fake.requests.filter((r) => r.path.endsWith("/calendarView/delta"));

      const full = await client.changes(calendarId, { ...range, state: null });
      expect(full.full).toBe(true);
      expect(deltas()).toHaveLength(2); // three events, two a page (the fake's page size)
      expect(deltas()[0]!.headers.prefer).toContain("odata.maxpagesize=");
      expect(deltas()[1]!.query.has("$skiptoken")).toBe(true);
      expect(full.upserts.get(a.id)).toEqual([{ start: at("2030-05-06T09:00:00Z"), end: at("2030-05-06T10:00:00Z"), eventId: a.id }]);
      expect(full.upserts.size).toBe(3);
      expect(new URL(full.state).searchParams.has("$deltatoken")).toBe(true);

      const quiet = await client.changes(calendarId, { ...range, state: full.state });
      expect(quiet.full).toBe(false);
      expect(quiet.upserts.size + quiet.removed.length).toBe(0);
      expect(deltas()).toHaveLength(3);

      fake.changeEvent(a.id, { start: at("2030-05-06T15:00:00Z"), end: at("2030-05-06T16:00:00Z") });
      fake.changeEvent(c.id, { showAs: "free" });
      fake.deleteEvent(b.id);
      const changed = await client.changes(calendarId, { ...range, state: quiet.state });
      expect(changed.full).toBe(false);
      expect(changed.upserts.get(a.id)).toEqual([{ start: at("2030-05-06T15:00:00Z"), end: at("2030-05-06T16:00:00Z"), eventId: a.id }]);
      expect(changed.upserts.get(c.id)).toEqual([]);
      expect(changed.removed).toEqual([b.id]);

      fake.expireDeltaTokens();
      const again = await client.changes(calendarId, { ...range, state: changed.state });
      expect(again.full).toBe(true);
      expect([...again.upserts.keys()].sort()).toEqual([a.id, c.id].sort());
    } finally {
      fake.calendars.splice(fake.calendars.findIndex((x) => x.id === calendarId), 1);
    }
  });

  it("a deltaLink to another host is refused: it would carry the bearer token there", async () => {
    useFake();
    const { client } = await connectedClient();
    const refused = await failure(client.changes(primaryId(), { from: 0, to: HOUR, timeZone: "UTC", state: "https://attacker.example/v1.0/delta?$deltatoken=x" }));
    expect(refused.kind).toBe("rejected");
    expect(fake.requests.some((r) => r.path.includes("attacker"))).toBe(false);
  });
});

describe("Microsoft event writes", () => {
  const booking = (uid: string, start: number): CalendarEvent => ({
    uid,
    title: "Intro call with Ada",
    description: "Booked by Ada <ada@example.com>",
    location: "https://meet.example/abc",
    start,
    end: start + HOUR,
    timeZone: "Europe/Berlin",
    attendees: [{ name: "Ada", email: "ada@example.com" }],
  });

  it("a create retried with the same uid makes one event, brought up to date; update moves it; delete removes it, twice is fine", async () => {
    useFake();
    const { client } = await connectedClient();
    const primary = primaryId();
    const uid = `bk_${randomBytes(6).toString("hex")}@booking.test`;
    const event = booking(uid, at("2030-04-01T09:00:00Z"));

    const { eventId } = await client.createEvent(primary, event);
    const again = await client.createEvent(primary, event);
    expect(again.eventId).toBe(eventId);
    let mine = fake.events(primary).filter((e) => e.id === eventId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      transactionId: microsoftTransactionId(uid),
      subject: event.title,
      body: { contentType: "text", content: event.description },
      start: { dateTime: "2030-04-01T09:00:00.0000000", timeZone: "UTC" },
      end: { dateTime: "2030-04-01T10:00:00.0000000", timeZone: "UTC" },
      location: { displayName: event.location },
      // No attendees: Outlook would mail the guest a second invitation from the host's mailbox.
      attendees: [],
    });
    expect(microsoftTransactionId(uid)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    // The booking moved before the retried create ran: the one event follows it.
    const moved = booking(uid, at("2030-04-01T13:00:00Z"));
    expect((await client.createEvent(primary, moved)).eventId).toBe(eventId);
    mine = fake.events(primary).filter((e) => e.transactionId === microsoftTransactionId(uid));
    expect(mine.map((e) => e.start.dateTime)).toEqual(["2030-04-01T13:00:00.0000000"]);

    await client.updateEvent(primary, eventId, booking(uid, at("2030-04-02T15:00:00Z")));
    expect(fake.events(primary).find((e) => e.id === eventId)).toMatchObject({
      start: { dateTime: "2030-04-02T15:00:00.0000000" },
      end: { dateTime: "2030-04-02T16:00:00.0000000" },
    });

    await client.deleteEvent(primary, eventId);
    expect(fake.events(primary).some((e) => e.id === eventId)).toBe(false);
    await client.deleteEvent(primary, eventId);
    expect(await failure(client.updateEvent(primary, eventId, event))).toMatchObject({ kind: "not_found", status: 404 });
  });

  it("a read-only calendar refuses the write", async () => {
    useFake();
    const { client } = await connectedClient();
    const readOnly = fake.calendars.find((c) => !c.canEdit)!.id;
    const e = await failure(client.createEvent(readOnly, booking(`bk_${randomBytes(6).toString("hex")}@booking.test`, at("2030-04-03T09:00:00Z"))));
    expect(e).toMatchObject({ kind: "rejected", status: 403 });
    expect(e.message).toContain("ErrorAccessDenied");
  });
});
