import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./config";

const dir = () => mkdtempSync(path.join(tmpdir(), "booking-config-"));

describe("parseConfig", () => {
  it("applies the run contract's defaults", () => {
    const c = parseConfig({ DATA_DIR: dir() });
    expect(c).toMatchObject({ port: 3000, host: "0.0.0.0", appUrl: "http://localhost:3000", databaseUrl: undefined, rateLimits: true, trustProxy: false, jwtExpiresIn: 86400 });
    expect(c.encryptionKey).toHaveLength(32);
  });

  it("generates secrets once into DATA_DIR (mode 600) and reuses them", () => {
    const dataDir = dir();
    const first = parseConfig({ DATA_DIR: dataDir });
    const file = path.join(dataDir, "secrets.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = parseConfig({ DATA_DIR: dataDir });
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(second.encryptionKey.equals(first.encryptionKey)).toBe(true);
    expect(JSON.parse(readFileSync(file, "utf8")).jwtSecret).toBe(first.jwtSecret);
  });

  it("prefers secrets from the environment", () => {
    const key = Buffer.alloc(32, 7).toString("base64");
    const c = parseConfig({ DATA_DIR: dir(), JWT_SECRET: "j".repeat(40), ENCRYPTION_KEY: key });
    expect(c.jwtSecret).toBe("j".repeat(40));
    expect(c.encryptionKey.toString("base64")).toBe(key);
  });

  it("requires secrets with DATABASE_URL in production", () => {
    expect(() => parseConfig({ DATA_DIR: dir(), NODE_ENV: "production", DATABASE_URL: "postgres://x@localhost/db" })).toThrow(/JWT_SECRET and ENCRYPTION_KEY are required/);
  });

  it.each([
    ["PORT", { PORT: "eighty" }],
    ["ENCRYPTION_KEY", { ENCRYPTION_KEY: "c2hvcnQ=" }],
    ["DATABASE_URL", { DATABASE_URL: "mysql://localhost/db" }],
    ["RATE_LIMITS", { RATE_LIMITS: "maybe" }],
    ["APP_URL", { APP_URL: "not a url" }],
    ["UPSTASH_REDIS_REST_TOKEN", { UPSTASH_REDIS_REST_URL: "http://127.0.0.1:8079" }],
    ["SMTP_URL", { SMTP_URL: "mail.example.com:587" }],
    ["SMTP_URL", { SMTP_URL: "http://mail.example.com" }],
    ["CALLS_FROM_NUMBER", { CALLS_ACCOUNT_SID: "AC123", CALLS_AUTH_TOKEN: "secret" }],
    ["CALLS_FROM_NUMBER", { CALLS_ACCOUNT_SID: "AC123", CALLS_AUTH_TOKEN: "secret", CALLS_FROM_NUMBER: "555-0100" }],
    ["CALLS_API_BASE_URL", { CALLS_API_BASE_URL: "api.twilio.com" }],
    ["CALLS_TIMEOUT_MS", { CALLS_TIMEOUT_MS: "0" }],
    ["CALENDAR_CHECK_MS", { CALENDAR_CHECK_MS: "10" }],
    ["CALENDAR_CHECK_MS", { CALENDAR_CHECK_MS: "1.5s" }],
    ["CALENDAR_FRESH_S", { CALENDAR_FRESH_S: "-1" }],
    ["LIMIT_REGISTER", { LIMIT_REGISTER: "ten an hour" }],
    ["LIMIT_REGISTER", { LIMIT_REGISTER: "0/1h" }],
    ["LIMIT_BOOKINGS_PER_ADDRESS", { LIMIT_BOOKINGS_PER_ADDRESS: "30/10d" }],
    ["LIMIT_BOOKINGS_PER_ADDRESS", { LIMIT_BOOKINGS_PER_ADDRESS: "30/200h" }],
    ["LIMIT_LOGIN", { LIMIT_LOGIN: "100 per 15m" }],
    ["LIMIT_LOGIN", { LIMIT_LOGIN: "0/15m" }],
    ["OIDC_ISSUER", { OIDC_ISSUER: "login.example.com", OIDC_CLIENT_ID: "booking", OIDC_CLIENT_SECRET: "s3cret" }],
    ["OIDC_CLIENT_SECRET", { OIDC_ISSUER: "https://login.example.com", OIDC_CLIENT_ID: "booking" }],
    ["OIDC_CLIENT_ID", { OIDC_CLIENT_SECRET: "s3cret" }],
    ["OIDC_SIGNUP", { OIDC_SIGNUP: "maybe" }],
    ["PASSWORD_LOGIN", { PASSWORD_LOGIN: "no" }],
  ])("fails fast naming %s", (name, env) => {
    expect(() => parseConfig({ DATA_DIR: dir(), ...env })).toThrow(ConfigError);
    expect(() => parseConfig({ DATA_DIR: dir(), ...env })).toThrow(name);
  });

  it("checks calendars older than 60 s at booking, waiting at most 1.5 s, unless told otherwise", () => {
    expect(parseConfig({ DATA_DIR: dir() })).toMatchObject({ calendarFreshS: 60, calendarCheckMs: 1500 });
    expect(parseConfig({ DATA_DIR: dir(), CALENDAR_FRESH_S: "0", CALENDAR_CHECK_MS: "300" })).toMatchObject({ calendarFreshS: 0, calendarCheckMs: 300 });
  });

  it("strips a trailing slash from APP_URL and honours RATE_LIMITS=off and TRUST_PROXY=1", () => {
    const c = parseConfig({ DATA_DIR: dir(), APP_URL: "https://book.example.com/", RATE_LIMITS: "off", TRUST_PROXY: "1" });
    expect(c).toMatchObject({ appUrl: "https://book.example.com", rateLimits: false, trustProxy: true });
  });

  it("runs the jobs in the serving process unless WORKER=off, which needs a shared PostgreSQL", () => {
    expect(parseConfig({ DATA_DIR: dir() }).worker).toBe("on");
    expect(parseConfig({ DATA_DIR: dir(), WORKER: "off", DATABASE_URL: "postgres://db/booking" }).worker).toBe("off");
    expect(() => parseConfig({ DATA_DIR: dir(), WORKER: "off" })).toThrow(/WORKER=off needs DATABASE_URL/);
    expect(() => parseConfig({ DATA_DIR: dir(), WORKER: "no" })).toThrow(ConfigError);
  });

  it("asks for calendar push unless CALENDAR_PUSH=off, and refuses any other value", () => {
    expect(parseConfig({ DATA_DIR: dir() }).calendarPush).toBe(true);
    expect(parseConfig({ DATA_DIR: dir(), CALENDAR_PUSH: "off" }).calendarPush).toBe(false);
    expect(() => parseConfig({ DATA_DIR: dir(), CALENDAR_PUSH: "maybe" })).toThrow(/CALENDAR_PUSH/);
  });

  it("reads the per-address limits as N/window or off, with the decided defaults", () => {
    expect(parseConfig({ DATA_DIR: dir() }).addressLimits).toEqual({
      register: { limit: 10, windowSeconds: 3600 },
      bookings: { limit: 30, windowSeconds: 600 },
      login: { limit: 100, windowSeconds: 900 },
      slots: { limit: 60, windowSeconds: 60 },
      api: { limit: 600, windowSeconds: 60 },
    });
    expect(
      parseConfig({ DATA_DIR: dir(), LIMIT_REGISTER: "off", LIMIT_BOOKINGS_PER_ADDRESS: " 5 / 45s ", LIMIT_LOGIN: "500/1h", LIMIT_SLOTS_PER_ADDRESS: "1000/1m" }).addressLimits,
    ).toEqual({
      register: undefined,
      bookings: { limit: 5, windowSeconds: 45 },
      login: { limit: 500, windowSeconds: 3600 },
      slots: { limit: 1000, windowSeconds: 60 },
      api: { limit: 600, windowSeconds: 60 },
    });
    expect(parseConfig({ DATA_DIR: dir(), LIMIT_LOGIN: "OFF" }).addressLimits.login).toBeUndefined();
  });

  it("sends mail through SMTP_URL when set, from MAIL_FROM or no-reply at APP_URL's host", () => {
    const plain = parseConfig({ DATA_DIR: dir(), APP_URL: "https://book.example.com" });
    expect(plain).toMatchObject({ smtpUrl: undefined, mailFrom: "Booking <no-reply@book.example.com>" });
    const set = parseConfig({ DATA_DIR: dir(), SMTP_URL: "smtps://user:pass@mail.example.com:465", MAIL_FROM: "Ada's bookings <ada@example.com>" });
    expect(set).toMatchObject({ smtpUrl: "smtps://user:pass@mail.example.com:465", mailFrom: "Ada's bookings <ada@example.com>" });
  });

  it("has no telephony provider without credentials, and reads all of it when they are set", () => {
    expect(parseConfig({ DATA_DIR: dir() }).calls).toBeUndefined();
    const c = parseConfig({
      DATA_DIR: dir(),
      CALLS_ACCOUNT_SID: "AC0123456789abcdef0123456789abcdef",
      CALLS_AUTH_TOKEN: "token",
      CALLS_FROM_NUMBER: "+1 (415) 555-0100",
      CALLS_API_BASE_URL: "http://127.0.0.1:9999/",
    });
    expect(c.calls).toEqual({
      baseUrl: "http://127.0.0.1:9999",
      accountSid: "AC0123456789abcdef0123456789abcdef",
      authToken: "token",
      fromNumber: "+14155550100",
      timeoutMs: 10_000,
    });
    expect(parseConfig({ DATA_DIR: dir(), CALLS_ACCOUNT_SID: "AC1", CALLS_AUTH_TOKEN: "t", CALLS_FROM_NUMBER: "+14155550100" }).calls?.baseUrl).toBe("https://api.twilio.com");
  });

  it("VIDEO_URL_TEMPLATE: off when unset or empty; a template without {room} or {bookingId}, or naming anything else, stops the start", () => {
    expect(parseConfig({ DATA_DIR: dir() }).videoUrlTemplate).toBeUndefined();
    expect(parseConfig({ DATA_DIR: dir(), VIDEO_URL_TEMPLATE: "" }).videoUrlTemplate).toBeUndefined();
    expect(parseConfig({ DATA_DIR: dir(), VIDEO_URL_TEMPLATE: "https://meet.jit.si/{room}" }).videoUrlTemplate).toBe("https://meet.jit.si/{room}");
    expect(() => parseConfig({ DATA_DIR: dir(), VIDEO_URL_TEMPLATE: "https://meet.jit.si/team-room" })).toThrow(/VIDEO_URL_TEMPLATE/);
    expect(() => parseConfig({ DATA_DIR: dir(), VIDEO_URL_TEMPLATE: "https://meet.jit.si/{guestEmail}" })).toThrow(/unknown placeholder/);
  });

  it("has no OIDC sign-in until issuer, client id and secret are all set; passwords stay on by default", () => {
    expect(parseConfig({ DATA_DIR: dir() })).toMatchObject({ oidc: undefined, passwordLogin: true });
    const c = parseConfig({ DATA_DIR: dir(), OIDC_ISSUER: "https://login.example.com/realms/acme/", OIDC_CLIENT_ID: "booking", OIDC_CLIENT_SECRET: "s3cret" });
    expect(c.oidc).toEqual({
      issuer: "https://login.example.com/realms/acme/",
      discoveryUrl: "https://login.example.com/realms/acme/.well-known/openid-configuration",
      clientId: "booking",
      clientSecret: "s3cret",
      name: "Company sign-in",
      signup: true,
    });
    const named = parseConfig({ DATA_DIR: dir(), OIDC_ISSUER: "https://id.acme.test", OIDC_CLIENT_ID: "b", OIDC_CLIENT_SECRET: "s", OIDC_NAME: "Acme SSO", OIDC_SIGNUP: "off" });
    expect(named.oidc).toMatchObject({ name: "Acme SSO", signup: false });
    expect(() => parseConfig({ DATA_DIR: dir(), OIDC_ISSUER: "https://id.acme.test", OIDC_CLIENT_ID: "b" })).toThrow(/must be set together \(missing: OIDC_CLIENT_SECRET\)/);
  });

  it("PASSWORD_LOGIN=off needs OIDC: otherwise nobody could sign in", () => {
    expect(() => parseConfig({ DATA_DIR: dir(), PASSWORD_LOGIN: "off" })).toThrow(/PASSWORD_LOGIN=off needs OIDC_ISSUER.*nobody could sign in/);
    const c = parseConfig({ DATA_DIR: dir(), PASSWORD_LOGIN: "off", OIDC_ISSUER: "https://id.acme.test", OIDC_CLIENT_ID: "b", OIDC_CLIENT_SECRET: "s" });
    expect(c.passwordLogin).toBe(false);
  });
});
