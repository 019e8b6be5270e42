import "server-only";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { templateProblem } from "./meeting-location";
import { toE164 } from "./phone";

// Every environment variable the service reads, parsed once. A bad value stops the
// process at start with a message naming the variable, instead of failing later.

const flag = z
  .enum(["1", "0", "true", "false", "on", "off", "yes", "no", ""])
  .optional()
  .transform((v) => v === "1" || v === "true" || v === "on" || v === "yes");

const base64Key = z
  .string()
  .refine((v) => Buffer.from(v, "base64").length === 32, "must be 32 bytes, base64-encoded");

/** A per-address limit's setting: `N/window` (`10/1h`, `30/10m`, `5/30s`) or `off`. */
export type LimitRule = { limit: number; windowSeconds: number };
const UNIT_SECONDS = { s: 1, m: 60, h: 3600 } as const;
const limitSetting = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx): LimitRule | undefined => {
      if (v.trim().toLowerCase() === "off") return undefined;
      const match = /^\s*(\d{1,6})\s*\/\s*(\d{1,5})\s*([smh])\s*$/.exec(v);
      const limit = Number(match?.[1]);
      const windowSeconds = Number(match?.[2]) * UNIT_SECONDS[(match?.[3] ?? "s") as keyof typeof UNIT_SECONDS];
      if (match && limit >= 1 && windowSeconds >= 1 && windowSeconds <= 7 * 86400) return { limit, windowSeconds };
      ctx.addIssue({ code: "custom", message: "must be N/window with a window in s, m or h of at most a week (e.g. 10/1h, 30/10m), or off" });
      return z.NEVER;
    });

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  APP_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default("./.data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  JWT_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  JWT_EXPIRES_IN: z.coerce.number().int().min(60).max(30 * 86400).default(86400),
  ENCRYPTION_KEY: base64Key.optional(),
  RATE_LIMITS: z.enum(["on", "off"]).default("on"),
  LIMIT_REGISTER: limitSetting("10/1h"),
  LIMIT_BOOKINGS_PER_ADDRESS: limitSetting("30/10m"),
  // Password logins per client address (decisions §8), the API's and the dashboard's alike. A
  // successful login gives its count back, so only failures add up: an office of a hundred people
  // behind one address is not locked out by its own morning. `off` lifts this figure only: the
  // 10 failures per 15 minutes per (address, email) pair stay (lib/services/accounts/login-guard.ts).
  LIMIT_LOGIN: limitSetting("100/15m"),
  LIMIT_SLOTS_PER_ADDRESS: limitSetting("60/1m"),
  LIMIT_API_KEY: limitSetting("600/1m"),
  LIMIT_API_PER_ADDRESS: limitSetting("600/1m"),
  TRUST_PROXY: flag,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
  UPSTASH_REDIS_REST_URL: z.url().optional(),
  UPSTASH_REDIS_REST_TOKEN: z.string().min(1).optional(),
  CALDAV_SERVER_URL: z.url().default("https://caldav.icloud.com"),
  CALDAV_ALLOW_PRIVATE: flag,
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  MICROSOFT_CLIENT_ID: z.string().optional(),
  MICROSOFT_CLIENT_SECRET: z.string().optional(),
  // The providers' addresses: overridable so tests (and sovereign clouds) can point them elsewhere.
  GOOGLE_AUTH_URL: z.url().default("https://accounts.google.com/o/oauth2/v2/auth"),
  GOOGLE_TOKEN_URL: z.url().default("https://oauth2.googleapis.com/token"),
  GOOGLE_REVOKE_URL: z.url().default("https://oauth2.googleapis.com/revoke"),
  GOOGLE_API_BASE_URL: z.url().default("https://www.googleapis.com"),
  MICROSOFT_LOGIN_BASE_URL: z.url().default("https://login.microsoftonline.com/common"),
  MICROSOFT_GRAPH_BASE_URL: z.url().default("https://graph.microsoft.com/v1.0"),
  // A meeting link per `video` booking when the host's calendar makes none (decisions §17).
  VIDEO_URL_TEMPLATE: z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      const problem = v === "" ? undefined : templateProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .optional()
    .transform((v) => (v ? v : undefined)),
  CALENDAR_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  // How often each calendar connection is polled in the background. Polls are incremental (a no-change
  // poll is one request per calendar), so two minutes costs little and keeps busy data fresh.
  CALENDAR_SYNC_INTERVAL_S: z.coerce.number().int().min(10).max(86_400).default(120),
  // Decisions §17: busy data older than this is checked with the provider when a booking is made,
  // and that check waits at most CALENDAR_CHECK_MS (all connections together).
  CALENDAR_FRESH_S: z.coerce.number().int().min(0).max(86_400).default(60),
  CALENDAR_CHECK_MS: z.coerce.number().int().min(50).max(30_000).default(1_500),
  // Push notifications from Google and Microsoft (decisions §17); only ever with an https APP_URL.
  CALENDAR_PUSH: z.enum(["on", "off"]).default("on"),
  // How long finished outbox rows (sent emails, delivered webhooks, calendar writes) are kept.
  OUTBOX_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  // Whether `npm start` also runs the jobs (outbox, calendar sync, housekeeping); `npm run worker` always does.
  WORKER: z.enum(["on", "off"]).default("on"),
  WEBHOOKS_ALLOW_PRIVATE: flag,
  CALLS_API_BASE_URL: z.url().default("https://api.twilio.com"),
  CALLS_ACCOUNT_SID: z.string().regex(/^[\w-]{1,64}$/, "must be the provider's account id (letters, digits, '_' or '-')").optional(),
  CALLS_AUTH_TOKEN: z.string().min(1).optional(),
  CALLS_FROM_NUMBER: z
    .string()
    .transform((v, ctx) => {
      const number = toE164(v);
      if (number) return number;
      ctx.addIssue({ code: "custom", message: "must be a phone number in international format, e.g. +14155550100" });
      return z.NEVER;
    })
    .optional(),
  CALLS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  // Paid sessions (decisions §20): one Stripe account per installation. Both keys, or neither.
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_\w{8,}$/, "must be a Stripe secret key (sk_live_…, sk_test_…) or restricted key (rk_…)").optional(),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_\w{8,}$/, "must be the webhook endpoint's signing secret (whsec_…), shown by Stripe for the endpoint").optional(),
  STRIPE_API_URL: z.url().default("https://api.stripe.com"),
  // How long a paid booking holds its time while the guest pays (Stripe's Checkout stays open at least 30 minutes; we expire it sooner).
  PAYMENT_HOLD_MINUTES: z.coerce.number().int().min(5).max(24 * 60).default(15),
  // Company sign-in (decisions §22): an OpenID Connect provider found by discovery from its issuer.
  // Issuer, client id and secret all together, or none.
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_NAME: z.string().trim().min(1).max(60).default("Company sign-in"),
  // Whether a first OIDC sign-in with an unknown (verified) email creates a host.
  OIDC_SIGNUP: z.enum(["on", "off"]).default("on"),
  // `off`: OIDC is the only way in (needs OIDC); every password route answers 403.
  PASSWORD_LOGIN: z.enum(["on", "off"]).default("on"),
  METRICS: flag,
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  // The operator's bearer token for GET /api/v1/health?full=1 (the doctor's report); unset: that report is off.
  OPS_TOKEN: z.string().min(24, "must be at least 24 characters (e.g. openssl rand -base64 32)").optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/]/, "must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587")
    .optional(),
  MAIL_FROM: z.string().min(3).max(320).optional(),
});

/** The outbound-calling service's telephony provider (a Twilio-compatible REST API). */
export type CallsProviderConfig = {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** The caller number, E.164. */
  fromNumber: string;
  timeoutMs: number;
};

/** The installation's Stripe account and how long a paid booking waits for its payment. */
export type PaymentsConfig = { secretKey: string; webhookSecret: string; apiUrl: string; holdMinutes: number };

const CALLS_CREDENTIALS = ["CALLS_ACCOUNT_SID", "CALLS_AUTH_TOKEN", "CALLS_FROM_NUMBER"] as const;
const OIDC_SETTINGS = ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"] as const;

/** The company's OpenID Connect provider (decisions §22). */
export type OidcConfig = {
  /** The issuer exactly as configured (an ID token's `iss` must equal the discovery document's issuer). */
  issuer: string;
  /** `{issuer without a trailing slash}/.well-known/openid-configuration` (OpenID Connect Discovery §4). */
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
  /** The sign-in button's label. */
  name: string;
  /** Whether an unknown verified email creates a host. */
  signup: boolean;
};

export type Config = {
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string;
  appUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  jwtSecret: string;
  jwtExpiresIn: number;
  /** Days a finished outbox row is kept before lib/outbox/prune.ts deletes it. */
  outboxRetentionDays: number;
  /**
   * WORKER: whether a serving process also runs the jobs (the outbox, the calendar sync loop,
   * housekeeping). Off: it only serves, and `npm run worker` processes on the same PostgreSQL do them.
   */
  worker: "on" | "off";
  encryptionKey: Buffer;
  rateLimits: boolean;
  /** Per client address; undefined when that limit is off (RATE_LIMITS=off turns all of them off). */
  addressLimits: {
    register: LimitRule | undefined;
    bookings: LimitRule | undefined;
    login: LimitRule | undefined;
    slots: LimitRule | undefined;
    /** Every other public API route without a limit of its own (404s and 405s too). */
    api: LimitRule | undefined;
  };
  /** Requests per API key (LIMIT_API_KEY); a signed-in person has 300 a minute. */
  apiKeyLimit: LimitRule | undefined;
  trustProxy: boolean;
  logLevel: NonNullable<z.infer<typeof EnvSchema>["LOG_LEVEL"]>;
  upstash: { url: string; token: string } | undefined;
  caldavServerUrl: string;
  /** A host-given CalDAV server may be on a private or loopback address (and plain http). */
  caldavAllowPrivate: boolean;
  google: { clientId: string; clientSecret: string } | undefined;
  microsoft: { clientId: string; clientSecret: string } | undefined;
  /** Where provider_a lives: OAuth consent and token endpoints, the Calendar API's root. */
  googleEndpoints: { authUrl: string; tokenUrl: string; revokeUrl: string; apiBaseUrl: string };
  /** Where provider_b lives: `{loginBaseUrl}/oauth2/v2.0/{authorize,token}` and Graph's root. */
  microsoftEndpoints: { loginBaseUrl: string; graphBaseUrl: string };
  /** How long one request to a calendar provider may take before it counts as unavailable. */
  calendarTimeoutMs: number;
  /** How often each calendar connection is read again in the background. */
  calendarSyncIntervalS: number;
  /** Busy data at most this old (seconds) is trusted by a booking; older is checked with the provider (0: always). */
  calendarFreshS: number;
  /** How long a booking waits in total for the providers it checks before going ahead on the stored busy data. */
  calendarCheckMs: number;
  /**
   * CALENDAR_PUSH: whether to ask Google and Microsoft to notify us of changes. It takes effect
   * only where APP_URL is https (the providers call nothing else) and the provider is configured.
   */
  calendarPush: boolean;
  /** VIDEO_URL_TEMPLATE: `{room}` / `{bookingId}` filled per booking (lib/meeting-location.ts). */
  videoUrlTemplate: string | undefined;
  webhooksAllowPrivate: boolean;
  /** Unset without credentials: the outbound-calling endpoints then answer 503. */
  calls: CallsProviderConfig | undefined;
  /** Stripe (decisions §20); unset without both keys: a price cannot be set. */
  payments: PaymentsConfig | undefined;
  /** OIDC sign-in; undefined without OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET. */
  oidc: OidcConfig | undefined;
  /** PASSWORD_LOGIN: false leaves OIDC the only way in (every password route answers 403). */
  passwordLogin: boolean;
  /** /metrics: off, open to anyone who can reach it, or behind a bearer token. */
  metrics: { enabled: false } | { enabled: true; token: string | undefined };
  /** OPS_TOKEN: the bearer token of /api/v1/health?full=1; undefined: the full report is off. */
  opsToken: string | undefined;
  /** Where email goes; unset: each message is written as an .eml file under DATA_DIR/mail. */
  smtpUrl: string | undefined;
  mailFrom: string;
};

export class ConfigError extends Error {}

type SecretFile = { jwtSecret: string; encryptionKey: string };

/** Reads the secrets kept in DATA_DIR, creating them once on first start. */
function loadOrCreateSecrets(dataDir: string, onCreate: (file: string) => void): SecretFile {
  const file = path.join(dataDir, "secrets.json");
  if (existsSync(file)) {
    const parsed = z
      .object({ jwtSecret: z.string().min(32), encryptionKey: base64Key })
      .safeParse(JSON.parse(readFileSync(file, "utf8")));
    if (!parsed.success) throw new ConfigError(`${file} is damaged: delete it to generate new secrets`);
    return parsed.data;
  }
  mkdirSync(dataDir, { recursive: true });
  const secrets = {
    jwtSecret: randomBytes(48).toString("base64url"),
    encryptionKey: randomBytes(32).toString("base64"),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  onCreate(file);
  return secrets;
}

type Env = z.output<typeof EnvSchema>;

/** The environment parsed, and the settings that only make sense together checked together. */
function readEnv(env: Record<string, string | undefined>): Env {
  // Empty strings count as unset, the way shells and .env files usually mean them.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = result.data;
  if ((e.UPSTASH_REDIS_REST_URL === undefined) !== (e.UPSTASH_REDIS_REST_TOKEN === undefined)) {
    throw new ConfigError("Invalid configuration:\n  UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN must be set together");
  }
  const callsSet = CALLS_CREDENTIALS.filter((name) => e[name] !== undefined);
  if (callsSet.length > 0 && callsSet.length < CALLS_CREDENTIALS.length) {
    throw new ConfigError(`Invalid configuration:\n  ${CALLS_CREDENTIALS.join(", ")} must be set together (missing: ${CALLS_CREDENTIALS.filter((n) => !callsSet.includes(n)).join(", ")})`);
  }
  if ((e.STRIPE_SECRET_KEY === undefined) !== (e.STRIPE_WEBHOOK_SECRET === undefined)) {
    throw new ConfigError("Invalid configuration:\n  STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together: without the webhook's secret no payment could ever be confirmed");
  }
  const oidcSet = OIDC_SETTINGS.filter((name) => e[name] !== undefined);
  if (oidcSet.length > 0 && oidcSet.length < OIDC_SETTINGS.length) {
    throw new ConfigError(`Invalid configuration:\n  ${OIDC_SETTINGS.join(", ")} must be set together (missing: ${OIDC_SETTINGS.filter((n) => !oidcSet.includes(n)).join(", ")})`);
  }
  if (e.PASSWORD_LOGIN === "off" && oidcSet.length === 0) {
    throw new ConfigError(
      "Invalid configuration:\n  PASSWORD_LOGIN=off needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET: without passwords and without OIDC nobody could sign in",
    );
  }
  if (e.WORKER === "off" && !e.DATABASE_URL) {
    throw new ConfigError(
      "Invalid configuration:\n  WORKER=off needs DATABASE_URL: the embedded database (PGlite) is opened by one process only, so no `npm run worker` could send this process's emails and webhooks",
    );
  }
  return e;
}

/** The token secret and the encryption key: as set, else generated once into DATA_DIR (never in production on PostgreSQL). */
function secretsOf(e: Env, dataDir: string): { jwtSecret: string; encryptionKey: string } {
  if (e.JWT_SECRET !== undefined && e.ENCRYPTION_KEY !== undefined) return { jwtSecret: e.JWT_SECRET, encryptionKey: e.ENCRYPTION_KEY };
  if (e.DATABASE_URL && e.NODE_ENV === "production") {
    throw new ConfigError("Invalid configuration:\n  JWT_SECRET and ENCRYPTION_KEY are required when DATABASE_URL is set in production");
  }
  const stored = loadOrCreateSecrets(dataDir, (file) =>
    process.stderr.write(
      `${JSON.stringify({ level: "warn", msg: `JWT_SECRET/ENCRYPTION_KEY not set: generated them into ${file}; keep that file private and backed up` })}\n`,
    ),
  );
  return { jwtSecret: e.JWT_SECRET ?? stored.jwtSecret, encryptionKey: e.ENCRYPTION_KEY ?? stored.encryptionKey };
}

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, "");

function oidcOf(e: Env): OidcConfig | undefined {
  if (!e.OIDC_ISSUER || !e.OIDC_CLIENT_ID || !e.OIDC_CLIENT_SECRET) return undefined;
  return {
    issuer: e.OIDC_ISSUER,
    discoveryUrl: `${withoutTrailingSlash(e.OIDC_ISSUER)}/.well-known/openid-configuration`,
    clientId: e.OIDC_CLIENT_ID,
    clientSecret: e.OIDC_CLIENT_SECRET,
    name: e.OIDC_NAME,
    signup: e.OIDC_SIGNUP === "on",
  };
}

/** The services the process talks to (calendars, calls), each undefined until its credentials are set. */
function integrationsOf(e: Env) {
  return {
    caldavServerUrl: e.CALDAV_SERVER_URL,
    caldavAllowPrivate: e.CALDAV_ALLOW_PRIVATE,
    google: e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET } : undefined,
    microsoft:
      e.MICROSOFT_CLIENT_ID && e.MICROSOFT_CLIENT_SECRET ? { clientId: e.MICROSOFT_CLIENT_ID, clientSecret: e.MICROSOFT_CLIENT_SECRET } : undefined,
    googleEndpoints: {
      authUrl: e.GOOGLE_AUTH_URL,
      tokenUrl: e.GOOGLE_TOKEN_URL,
      revokeUrl: e.GOOGLE_REVOKE_URL,
      apiBaseUrl: withoutTrailingSlash(e.GOOGLE_API_BASE_URL),
    },
    microsoftEndpoints: {
      loginBaseUrl: withoutTrailingSlash(e.MICROSOFT_LOGIN_BASE_URL),
      graphBaseUrl: withoutTrailingSlash(e.MICROSOFT_GRAPH_BASE_URL),
    },
    calendarTimeoutMs: e.CALENDAR_TIMEOUT_MS,
    calendarSyncIntervalS: e.CALENDAR_SYNC_INTERVAL_S,
    calendarFreshS: e.CALENDAR_FRESH_S,
    calendarCheckMs: e.CALENDAR_CHECK_MS,
    calendarPush: e.CALENDAR_PUSH === "on",
    calls:
      e.CALLS_ACCOUNT_SID && e.CALLS_AUTH_TOKEN && e.CALLS_FROM_NUMBER
        ? {
            baseUrl: withoutTrailingSlash(e.CALLS_API_BASE_URL),
            accountSid: e.CALLS_ACCOUNT_SID,
            authToken: e.CALLS_AUTH_TOKEN,
            fromNumber: e.CALLS_FROM_NUMBER,
            timeoutMs: e.CALLS_TIMEOUT_MS,
          }
        : undefined,
    payments:
      e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiUrl: withoutTrailingSlash(e.STRIPE_API_URL), holdMinutes: e.PAYMENT_HOLD_MINUTES }
        : undefined,
    oidc: oidcOf(e),
    passwordLogin: e.PASSWORD_LOGIN === "on",
  };
}

export function parseConfig(env: Record<string, string | undefined> = process.env): Config {
  const e = readEnv(env);
  const dataDir = path.resolve(e.DATA_DIR);
  const appUrl = withoutTrailingSlash(e.APP_URL ?? `http://localhost:${e.PORT}`);
  const { jwtSecret, encryptionKey } = secretsOf(e, dataDir);
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    appUrl,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    jwtSecret,
    jwtExpiresIn: e.JWT_EXPIRES_IN,
    outboxRetentionDays: e.OUTBOX_RETENTION_DAYS,
    worker: e.WORKER,
    encryptionKey: Buffer.from(encryptionKey, "base64"),
    rateLimits: e.RATE_LIMITS === "on",
    addressLimits: {
      register: e.LIMIT_REGISTER,
      bookings: e.LIMIT_BOOKINGS_PER_ADDRESS,
      login: e.LIMIT_LOGIN,
      slots: e.LIMIT_SLOTS_PER_ADDRESS,
      api: e.LIMIT_API_PER_ADDRESS,
    },
    apiKeyLimit: e.LIMIT_API_KEY,
    trustProxy: e.TRUST_PROXY,
    // Test runs are quiet unless asked otherwise.
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === "test" ? "silent" : "info"),
    upstash: e.UPSTASH_REDIS_REST_URL && e.UPSTASH_REDIS_REST_TOKEN ? { url: e.UPSTASH_REDIS_REST_URL, token: e.UPSTASH_REDIS_REST_TOKEN } : undefined,
    ...integrationsOf(e),
    videoUrlTemplate: e.VIDEO_URL_TEMPLATE,
    webhooksAllowPrivate: e.WEBHOOKS_ALLOW_PRIVATE,
    metrics: e.METRICS || e.METRICS_TOKEN ? { enabled: true, token: e.METRICS_TOKEN } : { enabled: false },
    opsToken: e.OPS_TOKEN,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `Booking <no-reply@${new URL(appUrl).hostname}>`,
  };
}

const globalForConfig = globalThis as unknown as { __bookingConfig?: Config };

/** The process-wide configuration, parsed on first use. */
export function getConfig(): Config {
  return (globalForConfig.__bookingConfig ??= parseConfig());
}

/** Replaces the process-wide configuration (tests). */
export function setConfig(config: Config | undefined): void {
  globalForConfig.__bookingConfig = config;
}
