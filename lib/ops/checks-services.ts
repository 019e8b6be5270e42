import "server-only";
import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import path from "node:path";
import { oauthCallbackUrl } from "@/lib/links";
import { errorText, withoutCredentials, type Check, type CheckContext, type Finding } from "./types";

// What the service talks to besides its database: mail, the calendar providers, the rate-limit
// store, its own public address, and where webhooks may go.

const smtp: Check = {
  name: "email",
  timeoutMs: 8_000,
  async run({ config }) {
    if (config.smtpUrl) {
      const where = withoutCredentials(config.smtpUrl);
      // Loaded here, not at start: only doctor and the health check's full report use it.
      const { default: nodemailer } = await import("nodemailer");
      const transport = nodemailer.createTransport({ url: config.smtpUrl, connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 5_000 });
      try {
        await transport.verify();
        return { status: "ok", finding: `${where} accepts the login; mail is sent as ${config.mailFrom}` };
      } catch (error) {
        const code = (error as { code?: string }).code;
        const login = code === "EAUTH" || /auth/i.test(errorText(error));
        return {
          status: "fail",
          finding: `${where}: ${errorText(error)}`,
          fix: login
            ? "check the user name and password in SMTP_URL (smtp://user:password@host:587; percent-encode special characters)"
            : "check SMTP_URL's host and port (587 with STARTTLS: smtp://, 465: smtps://) and that this machine may connect to it",
        };
      } finally {
        transport.close();
      }
    }
    const dir = path.join(config.dataDir, "mail");
    const writable = await nearestWritable(dir);
    if (!writable) return { status: "fail", finding: `SMTP_URL is not set and ${dir} is not writable: emails are lost`, fix: `make ${dir} writable by this user, or set SMTP_URL=smtp://user:password@host:587` };
    if (config.nodeEnv === "production") {
      return { status: "warn", finding: `SMTP_URL is not set: emails are written as .eml files to ${dir}, nobody receives them`, fix: "set SMTP_URL=smtp://user:password@host:587 and MAIL_FROM" };
    }
    return { status: "ok", finding: `SMTP_URL is not set: emails are written as .eml files to ${dir}` };
  },
};

/** The folder is writable, or would be created in a writable one. */
async function nearestWritable(dir: string): Promise<boolean> {
  for (let at = dir; ; at = path.dirname(at)) {
    try {
      if ((await stat(at)).isDirectory()) {
        await access(at, constants.W_OK);
        return true;
      }
      return false;
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOENT" || path.dirname(at) === at) return false;
    }
  }
}

const PROVIDERS = [
  { id: "provider_a", name: "Google", prefix: "GOOGLE", console: "the Google Cloud console (APIs & Services → Credentials)" },
  { id: "provider_b", name: "Microsoft", prefix: "MICROSOFT", console: "the Microsoft Entra admin center (App registrations → Authentication)" },
] as const;

/**
 * Per provider: id and secret both or neither, and, when both, whether the provider accepts them.
 * A code exchange with a code that does not exist tells: `invalid_client` (or Microsoft's
 * `unauthorized_client`) names the client as wrong; `invalid_grant` means the client was accepted.
 */
const oauth: Check = {
  name: "oauth",
  names: PROVIDERS.map((p) => `oauth ${p.name}`),
  timeoutMs: 8_000,
  async run(ctx) {
    return Promise.all(PROVIDERS.map((p) => oauthProvider(ctx, p)));
  },
};

async function oauthProvider(ctx: CheckContext, p: (typeof PROVIDERS)[number]): Promise<Finding> {
  const id = ctx.env[`${p.prefix}_CLIENT_ID`];
  const secret = ctx.env[`${p.prefix}_CLIENT_SECRET`];
  const redirect = oauthCallbackUrl(p.id);
  if (!id && !secret) return { status: "ok", finding: `not configured: hosts cannot connect ${p.name} calendars (optional)` };
  if (!id || !secret) {
    const [set, missing] = id ? [`${p.prefix}_CLIENT_ID`, `${p.prefix}_CLIENT_SECRET`] : [`${p.prefix}_CLIENT_SECRET`, `${p.prefix}_CLIENT_ID`];
    return { status: "fail", finding: `${set} is set but ${missing} is not: hosts cannot connect ${p.name} calendars`, fix: `set ${missing} (or unset ${set}); register the redirect URI ${redirect}` };
  }
  const tokenUrl = p.id === "provider_a" ? ctx.config.googleEndpoints.tokenUrl : `${ctx.config.microsoftEndpoints.loginBaseUrl}/oauth2/v2.0/token`;
  try {
    const res = await fetch(tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code: "doctor-check", redirect_uri: redirect, client_id: id, client_secret: secret }),
      signal: ctx.signal,
    });
    const body = (await res.json().catch(() => ({}))) as { error?: unknown };
    const error = typeof body.error === "string" ? body.error : undefined;
    if (error === "invalid_client" || error === "unauthorized_client") {
      return { status: "fail", finding: `${p.name} refuses the client id or secret (${error})`, fix: `copy ${p.prefix}_CLIENT_ID and ${p.prefix}_CLIENT_SECRET again from ${p.console}` };
    }
    if (res.status >= 500 || !error) return { status: "warn", finding: `${p.name}'s token endpoint answered ${res.status}; the client was not checked`, fix: "run the doctor again later" };
    return { status: "ok", finding: `${p.name} accepts the client; register the redirect URI ${redirect} in ${p.console}` };
  } catch (error) {
    return { status: "warn", finding: `${p.name}'s token endpoint is out of reach (${errorText(error)}); the client was not checked; redirect URI ${redirect}`, fix: "allow this machine to reach the provider over HTTPS" };
  }
}

const DEFAULT_CALDAV = "https://caldav.icloud.com";

/** The one CalDAV server hosts connect to: it should speak DAV (an OPTIONS with a DAV header, or a PROPFIND). */
const caldav: Check = {
  name: "caldav server",
  timeoutMs: 8_000,
  async run({ config, env, signal }) {
    const url = config.caldavServerUrl;
    const isDefault = !env.CALDAV_SERVER_URL;
    const label = isDefault ? `${url} (the default, iCloud)` : url;
    try {
      const options = await fetch(url, { method: "OPTIONS", signal });
      await options.body?.cancel();
      if (options.headers.get("dav")) return { status: "ok", finding: `${label} speaks CalDAV (DAV: ${options.headers.get("dav")!.slice(0, 60)})` };
      const propfind = await fetch(url, { method: "PROPFIND", headers: { depth: "0", "content-type": "application/xml" }, body: '<?xml version="1.0"?><propfind xmlns="DAV:"><prop><current-user-principal/></prop></propfind>', signal });
      await propfind.body?.cancel();
      if (propfind.status === 207 || propfind.status === 401) return { status: "ok", finding: `${label} answers PROPFIND (${propfind.status})` };
      return { status: "fail", finding: `${label} does not speak CalDAV (OPTIONS without a DAV header, PROPFIND ${propfind.status})`, fix: "set CALDAV_SERVER_URL to the CalDAV server's root, e.g. https://dav.example.com/" };
    } catch (error) {
      // The default may simply be out of this machine's reach while hosts use Google or Microsoft.
      return {
        status: isDefault ? "warn" : "fail",
        finding: `${label} is out of reach: ${errorText(error)}; hosts cannot connect CalDAV calendars`,
        fix: isDefault ? `allow HTTPS to ${new URL(DEFAULT_CALDAV).host}, or set CALDAV_SERVER_URL to your own server` : "check CALDAV_SERVER_URL and that this machine may reach it",
      };
    }
  },
};

const rateLimits: Check = {
  name: "rate limits",
  timeoutMs: 5_000,
  async run({ config }) {
    if (!config.rateLimits) {
      return config.nodeEnv === "production"
        ? { status: "warn", finding: "RATE_LIMITS=off: sign-up, sign-in and booking floods are not limited", fix: "unset RATE_LIMITS (on is the default)" }
        : { status: "ok", finding: "RATE_LIMITS=off" };
    }
    if (config.upstash) {
      try {
        const { Redis } = await import("@upstash/redis");
        const redis = new Redis({ url: config.upstash.url, token: config.upstash.token, enableTelemetry: false, retry: false });
        const pong = await redis.ping();
        return { status: "ok", finding: `Upstash Redis at ${withoutCredentials(config.upstash.url)} answers ${pong}: counters shared by every instance` };
      } catch (error) {
        return { status: "fail", finding: `Upstash Redis at ${withoutCredentials(config.upstash.url)}: ${errorText(error)}`, fix: "check UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN (the REST URL and token from the Upstash console)" };
      }
    }
    if (config.databaseUrl) return { status: "ok", finding: "counters in PostgreSQL: shared by every instance" };
    return { status: "ok", finding: "in-process counters: fine for one instance (the embedded database allows only one)" };
  },
};

/** APP_URL is what every link, email and OAuth redirect is built from: https in production, and this service. */
const appUrl: Check = {
  name: "APP_URL",
  timeoutMs: 6_000,
  async run({ config, env, runner, signal }) {
    const url = config.appUrl;
    if (config.nodeEnv === "production" && !env.APP_URL) {
      return { status: "fail", finding: `not set: links in emails and pages point at ${url}`, fix: "set APP_URL=https://booking.example.com (the address guests use)" };
    }
    if (config.nodeEnv === "production" && new URL(url).protocol !== "https:") {
      return { status: "fail", finding: `${url} is not https in production: sign-in cookies are sent in the clear, calendar push is off, Google refuses the redirect URI`, fix: "set APP_URL=https://… and put TLS in front (a reverse proxy); set TRUST_PROXY=1 behind it" };
    }
    const health = `${url}/api/v1/health`;
    try {
      const res = await fetch(health, { signal, redirect: "manual" });
      const body = (await res.json().catch(() => undefined)) as { status?: unknown; error?: unknown } | undefined;
      // This service's own answer: JSON from the route wrapper, which stamps every response with a request id.
      const ours = res.headers.has("x-request-id") && body !== undefined;
      if (ours && res.status === 200 && body?.status === "ok") return { status: "ok", finding: `${url} reaches this service` };
      if (ours && res.status === 503) return { status: "warn", finding: `${url} reaches this service, which reports itself unavailable (${String(body?.error)})`, fix: "see the database row" };
      if ([502, 503, 504].includes(res.status)) return notRunning(url, runner, `a proxy answers ${res.status}`);
      return { status: "fail", finding: `${url} answers ${res.status}, but not as this service: links would lead elsewhere`, fix: "set APP_URL to the address this service is reached at, or route it to this service in the proxy" };
    } catch (error) {
      return notRunning(url, runner, errorText(error));
    }
  },
};

function notRunning(url: string, runner: "cli" | "server", why: string): Finding {
  return runner === "cli"
    ? { status: "warn", finding: `nothing answers at ${url} (${why}); fine if the service is not started yet`, fix: "start the service (npm start) and run npm run doctor again to check it is reachable" }
    : { status: "fail", finding: `this service cannot reach itself at ${url} (${why}): links would not work`, fix: "set APP_URL to the public address, and point its DNS and proxy at this service" };
}

const webhooks: Check = {
  name: "webhook addresses",
  timeoutMs: 1_000,
  async run({ config }) {
    if (!config.webhooksAllowPrivate) return { status: "ok", finding: "public addresses only (private, loopback and cloud metadata addresses refused)" };
    if (config.nodeEnv === "production") {
      return { status: "warn", finding: "WEBHOOKS_ALLOW_PRIVATE is on: any host can make this server call addresses on its own network (SSRF)", fix: "unset WEBHOOKS_ALLOW_PRIVATE unless every host is trusted" };
    }
    return { status: "ok", finding: "WEBHOOKS_ALLOW_PRIVATE is on (development): private addresses allowed" };
  },
};

export const serviceChecks: Check[] = [smtp, oauth, caldav, rateLimits, appUrl, webhooks];
