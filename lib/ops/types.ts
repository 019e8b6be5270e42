import "server-only";
import type { Database } from "@/db/client";
import type { Config } from "@/lib/config";

// The doctor's vocabulary, shared by the runner (doctor.ts) and the checks.

export type CheckStatus = "ok" | "warn" | "fail";
export type Finding = { status: CheckStatus; finding: string; fix?: string };
export type CheckResult = Finding & { check: string; ms: number };
export type DoctorReport = { status: CheckStatus; checkedAt: string; checks: CheckResult[] };

/** The database the checks read: the process's own (the server), or one opened without migrating (the CLI). */
export type DatabaseSource = {
  /** What it is, for the report (never the URL's password). */
  describe: string;
  /** undefined: an embedded database that does not exist yet (the first start creates it). */
  open(): Promise<Database | undefined>;
};

export type CheckContext = {
  config: Config;
  /** The raw environment, for what the parsed configuration drops (a client id without its secret). */
  env: Record<string, string | undefined>;
  database: DatabaseSource;
  /** Where the report runs: the CLI may find no instance at APP_URL; the server is one. */
  runner: "cli" | "server";
  signal: AbortSignal;
};

export type Check = {
  name: string;
  timeoutMs: number;
  run(ctx: CheckContext): Promise<Finding | Finding[]>;
  /** Rows named apart from `name` (one per OAuth provider). */
  names?: string[];
};

const STATUS_ORDER: Record<CheckStatus, number> = { ok: 0, warn: 1, fail: 2 };

export function worst(statuses: CheckStatus[]): CheckStatus {
  return statuses.reduce<CheckStatus>((a, b) => (STATUS_ORDER[b] > STATUS_ORDER[a] ? b : a), "ok");
}

/** Every string in the report with the configuration's secrets cut out, whatever a library put in an error message. */
export function redact(text: string, config: Config, env: Record<string, string | undefined>): string {
  const secrets = new Set<string>();
  const add = (v: string | undefined) => {
    if (v && v.length >= 4) secrets.add(v);
  };
  add(config.jwtSecret);
  add(config.encryptionKey.toString("base64"));
  add(env.ENCRYPTION_KEY);
  add(config.opsToken);
  add(config.google?.clientSecret);
  add(config.microsoft?.clientSecret);
  add(env.GOOGLE_CLIENT_SECRET);
  add(env.MICROSOFT_CLIENT_SECRET);
  add(config.upstash?.token);
  add(config.calls?.authToken);
  add(config.payments?.secretKey);
  add(config.payments?.webhookSecret);
  add(config.oidc?.clientSecret);
  add(env.OIDC_CLIENT_SECRET);
  add(config.metrics.enabled ? config.metrics.token : undefined);
  for (const url of [config.smtpUrl, config.databaseUrl]) {
    if (!url) continue;
    try {
      const parsed = new URL(url);
      add(decodeURIComponent(parsed.password));
      add(parsed.password);
    } catch {
      // not a URL: nothing to cut out of it
    }
  }
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(secret).join("***");
  return out;
}

/** An address without its user name and password: `smtp://mail.example.com:587`. */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return "(not a URL)";
  }
}

export function errorText(error: unknown): string {
  if (error instanceof Error) {
    // fetch() says only "fetch failed"; what failed (ECONNREFUSED, ENOTFOUND) is its cause.
    if (error.message === "fetch failed" && error.cause) return errorText(error.cause);
    const code = (error as { code?: unknown }).code;
    const message = error.message.split("\n")[0]!.slice(0, 200);
    return typeof code === "string" && !message.includes(code) ? `${code}: ${message}` : message;
  }
  return String(error).slice(0, 200);
}
