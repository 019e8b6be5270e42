import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { openPostgres } from "@/db/client";
import { getConfig, parseConfig, setConfig } from "@/lib/config";
import { ALL_CHECKS, runDoctor } from "./doctor";
import { startFakeGoogle } from "@/tests/support/fake-google";
import { formatTable } from "./table";
import type { DatabaseSource } from "./types";

// The doctor against broken setups, each broken the way a self-hoster breaks one: a closed SMTP
// port, a client id without its secret, an http APP_URL in production, a database that is not
// there. The healthy setup (PGlite, .eml folder) is in tests/integration/doctor.test.ts.

const saved = getConfig();
afterEach(() => setConfig(saved));

let closedPort: number;
beforeAll(async () => {
  // A port that was free a moment ago and has nobody listening.
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  closedPort = (server.address() as AddressInfo).port;
  await new Promise((r) => server.close(r));
});

function envOf(extra: Record<string, string>): Record<string, string> {
  return {
    NODE_ENV: "development",
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "doctor-")),
    JWT_SECRET: randomBytes(32).toString("hex"),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    CALDAV_SERVER_URL: `http://127.0.0.1:${closedPort}/`,
    ...extra,
  };
}

const noDatabase: DatabaseSource = { describe: "none", open: async () => undefined };

async function doctor(extra: Record<string, string>, names: string[], database: DatabaseSource = noDatabase) {
  const env = envOf(extra);
  const config = parseConfig(env);
  setConfig(config);
  const report = await runDoctor({ config, env, database, runner: "cli" }, ALL_CHECKS.filter((c) => names.includes(c.name)));
  return { report, row: (name: string) => report.checks.find((c) => c.check === name)! };
}

describe("npm run doctor's checks", () => {
  it("fails SMTP on a closed port, names the server without its password, and says what to check", async () => {
    const { report, row } = await doctor({ SMTP_URL: `smtp://mailer:s3cret-Pa55@127.0.0.1:${closedPort}` }, ["email"]);
    expect(row("email")).toMatchObject({ status: "fail", finding: expect.stringContaining(`smtp://127.0.0.1:${closedPort}`), fix: expect.stringContaining("host and port") });
    expect(row("email").finding).toContain("ECONNREFUSED");
    expect(JSON.stringify(report)).not.toContain("s3cret-Pa55");
    expect(report.status).toBe("fail");
  });

  it("without SMTP_URL, says where the .eml files go; in production that is a warning, not a failure", async () => {
    const dev = await doctor({}, ["email"]);
    expect(dev.row("email")).toMatchObject({ status: "ok", finding: expect.stringMatching(/\.eml files to .*\/mail$/) });
    const prod = await doctor({ NODE_ENV: "production", APP_URL: "https://booking.example.com" }, ["email"]);
    expect(prod.row("email")).toMatchObject({ status: "warn", fix: expect.stringContaining("SMTP_URL=") });
    expect(prod.report.status).toBe("warn");
  });

  it("fails an OAuth client id without its secret, naming the missing variable and the redirect URI to register", async () => {
    const { row } = await doctor({ APP_URL: "https://booking.example.com", GOOGLE_CLIENT_ID: "123.apps.googleusercontent.com" }, ["oauth"]);
    expect(row("oauth Google")).toMatchObject({ status: "fail", finding: expect.stringContaining("GOOGLE_CLIENT_SECRET is not") });
    expect(row("oauth Google").fix).toContain("set GOOGLE_CLIENT_SECRET");
    expect(row("oauth Google").fix).toContain("https://booking.example.com/api/v1/oauth/callback/provider_a");
    expect(row("oauth Microsoft")).toMatchObject({ status: "ok", finding: expect.stringContaining("not configured") });
  });

  it("asks the provider whether it knows the client: a wrong secret fails, the right one passes", async () => {
    const google = await startFakeGoogle();
    try {
      const right = await doctor({ ...google.env, APP_URL: "https://booking.example.com" }, ["oauth"]);
      expect(right.row("oauth Google")).toMatchObject({ status: "ok", finding: expect.stringContaining("accepts the client; register the redirect URI https://booking.example.com/api/v1/oauth/callback/provider_a") });
      const wrong = await doctor({ ...google.env, GOOGLE_CLIENT_SECRET: "GOCSPX-not-the-secret" }, ["oauth"]);
      expect(wrong.row("oauth Google")).toMatchObject({ status: "fail", finding: expect.stringContaining("invalid_client"), fix: expect.stringContaining("GOOGLE_CLIENT_SECRET") });
      expect(JSON.stringify(wrong.report)).not.toContain("GOCSPX-not-the-secret");
    } finally {
      await google.close();
    }
  });

  it("fails an http APP_URL in production, and an unset one", async () => {
    const http = await doctor({ NODE_ENV: "production", APP_URL: "http://booking.example.com" }, ["APP_URL"]);
    expect(http.row("APP_URL")).toMatchObject({ status: "fail", finding: expect.stringContaining("not https"), fix: expect.stringContaining("APP_URL=https://") });
    const unset = await doctor({ NODE_ENV: "production" }, ["APP_URL"]);
    expect(unset.row("APP_URL")).toMatchObject({ status: "fail", finding: expect.stringContaining("not set") });
  });

  it("warns, not fails, when nothing answers at APP_URL yet from the command line; the server itself fails", async () => {
    const { row } = await doctor({ APP_URL: `http://127.0.0.1:${closedPort}` }, ["APP_URL"]);
    expect(row("APP_URL")).toMatchObject({ status: "warn", fix: expect.stringContaining("npm start") });
    const env = envOf({ APP_URL: `http://127.0.0.1:${closedPort}` });
    const config = parseConfig(env);
    const server = await runDoctor({ config, env, database: noDatabase, runner: "server" }, ALL_CHECKS.filter((c) => c.name === "APP_URL"));
    expect(server.checks[0]).toMatchObject({ status: "fail" });
  });

  it("fails an unreachable PostgreSQL without its password in the report, and does not check migrations against it", async () => {
    const url = `postgres://app:db-Secret-42@127.0.0.1:${closedPort}/booking`;
    const database: DatabaseSource = { describe: "PostgreSQL postgres://app@127.0.0.1", open: () => openPostgres(url, { max: 1 }) };
    const { report, row } = await doctor({ DATABASE_URL: url }, ["database", "migrations", "encryption key"], database);
    expect(row("database")).toMatchObject({ status: "fail", finding: expect.stringContaining("ECONNREFUSED"), fix: expect.stringContaining("DATABASE_URL") });
    expect(row("migrations")).toMatchObject({ status: "warn", finding: expect.stringContaining("not checked") });
    expect(row("encryption key").status).toBe("ok");
    expect(JSON.stringify(report)).not.toContain("db-Secret-42");
  });

  it("warns about WEBHOOKS_ALLOW_PRIVATE and RATE_LIMITS=off in production only", async () => {
    const prod = await doctor({ NODE_ENV: "production", APP_URL: "https://b.example.com", WEBHOOKS_ALLOW_PRIVATE: "1", RATE_LIMITS: "off" }, ["webhook addresses", "rate limits"]);
    expect(prod.row("webhook addresses")).toMatchObject({ status: "warn", fix: expect.stringContaining("unset WEBHOOKS_ALLOW_PRIVATE") });
    expect(prod.row("rate limits")).toMatchObject({ status: "warn", fix: expect.stringContaining("RATE_LIMITS") });
    const dev = await doctor({ WEBHOOKS_ALLOW_PRIVATE: "1" }, ["webhook addresses", "rate limits"]);
    expect(dev.report.status).toBe("ok");
  });

  it("fails a configured CalDAV server that is out of reach", async () => {
    const { row } = await doctor({}, ["caldav server"]);
    expect(row("caldav server")).toMatchObject({ status: "fail", fix: expect.stringContaining("CALDAV_SERVER_URL") });
  });

  it("gives each check its own time limit", async () => {
    const env = envOf({});
    const config = parseConfig(env);
    const hangs = { name: "hangs", timeoutMs: 100, run: () => new Promise<never>(() => {}) };
    const started = Date.now();
    const report = await runDoctor({ config, env, database: noDatabase, runner: "cli" }, [hangs]);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(report.checks[0]).toMatchObject({ check: "hangs", status: "fail", finding: "no answer within 0.1 s" });
  });

  it("prints a table whose long findings wrap inside their column", () => {
    const table = formatTable([{ check: "email", status: "fail", finding: "x ".repeat(60).trim(), fix: "set SMTP_URL" }]);
    const lines = table.split("\n");
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
    expect(lines[1]).toMatch(/^\| check +\| status \| finding +\| fix +\|$/);
    expect(table).toContain("| FAIL   |");
  });
});

describe("npm run doctor, the command", () => {
  it("exits 1 with the fix in its table when the setup is broken, and never prints a secret", async () => {
    const env = {
      ...process.env,
      ...envOf({ GOOGLE_CLIENT_ID: "123.apps.googleusercontent.com", SMTP_URL: `smtp://u:Mail-Secret-9@127.0.0.1:${closedPort}`, APP_URL: `http://127.0.0.1:${closedPort}` }),
    };
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn("npm", ["run", "--silent", "doctor"], { cwd: process.cwd(), env, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout }));
    });
    expect(code).toBe(1);
    expect(stdout).toMatch(/\| oauth Google +\| FAIL +\|/);
    expect(stdout).toContain("set GOOGLE_CLIENT_SECRET");
    expect(stdout).toMatch(/\| email +\| FAIL +\|/);
    expect(stdout).not.toContain("Mail-Secret-9");
    expect(stdout).toContain("3 failed");
  }, 60_000);

  it("exits 1 naming the variable when the configuration does not parse", async () => {
    const env = { ...process.env, ...envOf({ ENCRYPTION_KEY: "too-short" }) };
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn("npm", ["run", "--silent", "doctor"], { cwd: process.cwd(), env, stdio: ["ignore", "pipe", "ignore"] });
      let out = "";
      child.stdout.on("data", (c: Buffer) => (out += c.toString()));
      child.on("close", (c) => resolve({ code: c, stdout: out }));
    });
    expect(code).toBe(1);
    expect(stdout).toMatch(/\| configuration +\| FAIL +\| ENCRYPTION_KEY: must be 32 bytes/);
  }, 60_000);
});
