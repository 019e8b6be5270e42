import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getConfig, parseConfig, setConfig } from "@/lib/config";
import { ALL_CHECKS, runDoctor } from "@/lib/ops/doctor";
import { processDatabase } from "@/lib/ops/sources";
import { api } from "../support/api";
import { withTestDatabase } from "../support/database";
import { createHost } from "../support/factories";
import { startFakeStripe } from "../support/fake-stripe";
import { startRadicale, type Radicale } from "../support/radicale";

// The doctor on a real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set): a healthy
// setup, values sealed under a key that is no longer the configured one, a pending migration, and
// the operator's JSON at /health?full=1.

// Its own database on PostgreSQL: every file seals under its own random key (tests/support/setup.ts),
// so a shared database holds values this file's key did not seal, and deleting a migration row
// must not touch what other files migrate against.
const db = withTestDatabase({ isolated: true });
const saved = getConfig();
let radicale: Radicale | undefined;

beforeAll(async () => {
  radicale = await startRadicale();
}, 60_000);
afterAll(async () => {
  await radicale?.close();
});
afterEach(() => setConfig(saved));

function configWith(extra: Record<string, string> = {}) {
  const env = {
    NODE_ENV: "test",
    APP_URL: "http://booking.test",
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "doctor-")),
    JWT_SECRET: randomBytes(32).toString("hex"),
    ENCRYPTION_KEY: saved.encryptionKey.toString("base64"),
    ...(radicale ? { CALDAV_SERVER_URL: radicale.url } : {}),
    ...extra,
  };
  const config = parseConfig(env);
  setConfig(config);
  return { env, config };
}

const dataChecks = ALL_CHECKS.filter((c) => ["database", "migrations", "encryption key", "email", "caldav server", "webhook addresses"].includes(c.name));

async function doctorOf(extra: Record<string, string> = {}) {
  const { env, config } = configWith(extra);
  const report = await runDoctor({ config, env, database: processDatabase(config), runner: "server" }, dataChecks);
  return { report, row: (name: string) => report.checks.find((c) => c.check === name)! };
}

describe("the doctor on a database", () => {
  it("finds a healthy setup healthy: the database answers, every migration applied, the key opens what is stored, mail goes to .eml files", async () => {
    const { report, row } = await doctorOf();
    expect(row("database")).toMatchObject({ status: "ok", finding: expect.stringContaining("answers") });
    expect(row("migrations")).toMatchObject({ status: "ok", finding: expect.stringMatching(/^all \d+ applied/) });
    expect(row("encryption key")).toMatchObject({ status: "ok", finding: expect.stringContaining("seals and opens") });
    expect(row("email")).toMatchObject({ status: "ok", finding: expect.stringContaining(".eml") });
    if (radicale) expect(row("caldav server")).toMatchObject({ status: "ok" });
    expect(report.status).toBe(radicale ? "ok" : "fail");
  });

  it("fails the encryption key when stored values were sealed under another one, naming both key ids", async () => {
    const host = await createHost();
    const created = await api.post("/me/webhooks", { url: "https://hooks.example.com/in", events: ["booking.created"] }, { token: host.token });
    expect(created.status).toBe(201);
    const { row } = await doctorOf({ ENCRYPTION_KEY: randomBytes(32).toString("base64") });
    expect(row("encryption key")).toMatchObject({
      status: "fail",
      finding: expect.stringMatching(/\d+ webhook secrets \(key id [0-9a-f]{8}\).*the current key is [0-9a-f]{8}/),
      fix: expect.stringContaining("set ENCRYPTION_KEY back"),
    });
    // Under the key they were sealed with, the same values pass.
    expect((await doctorOf()).row("encryption key").status).toBe("ok");
  });

  it("warns of a migration the database has not applied, and names it", async () => {
    const database = db.current().db;
    const [last] = (await database.execute(sql`select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`).then((r) => (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows))) as { id: number; hash: string; created_at: string }[];
    await database.execute(sql`delete from drizzle.__drizzle_migrations where id = ${last!.id}`);
    try {
      const { row } = await doctorOf();
      expect(row("migrations")).toMatchObject({ status: "warn", finding: expect.stringMatching(/^1 of \d+ pending \(0\d{3}_\w+\)/), fix: expect.stringContaining("start") });
    } finally {
      await database.execute(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${last!.id}, ${last!.hash}, ${last!.created_at})`);
    }
    expect((await doctorOf()).row("migrations").status).toBe("ok");
  });
});

describe("GET /health?full=1", () => {
  const token = randomBytes(24).toString("base64url");

  it("is off while OPS_TOKEN is unset: 404, and plain /health answers as before", async () => {
    configWith();
    const res = await api.get("/health?full=1");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: "not_found", message: expect.stringContaining("OPS_TOKEN") });
    expect(res.body.checks).toBeUndefined();
    expect(await api.get("/health")).toMatchObject({ status: 200, body: { status: "ok" } });
  });

  it("without the operator's token, or with another, answers 401 and no details", async () => {
    configWith({ OPS_TOKEN: token });
    for (const headers of [{}, { authorization: `Bearer ${token}x` }, { authorization: token }] as Record<string, string>[]) {
      const res = await api.get("/health?full=1", { headers });
      expect(res.status).toBe(401);
      expect(JSON.stringify(res.body)).not.toMatch(/checks|database|encryption/);
    }
    // A host's own token is not the operator's.
    const host = await createHost();
    expect((await api.get("/health?full=1", { token: host.token })).status).toBe(401);
  });

  it("with the token, answers every check as JSON, without secrets", async () => {
    const smtpPassword = "Smtp-Pass-77";
    configWith({ OPS_TOKEN: token, SMTP_URL: `smtp://user:${smtpPassword}@127.0.0.1:9/` });
    const res = await api.get("/health?full=1", { token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("fail");
    const names = res.body.checks.map((c: { check: string }) => c.check);
    expect(names).toEqual(["database", "migrations", "encryption key", "email", "oauth Google", "oauth Microsoft", "caldav server", "rate limits", "APP_URL", "webhook addresses", "payments", "oidc sign-in"]);
    const row = (name: string) => res.body.checks.find((c: { check: string }) => c.check === name);
    expect(row("database").status).toBe("ok");
    expect(row("email")).toMatchObject({ status: "fail", finding: expect.stringContaining("smtp://127.0.0.1:9") });
    const text = JSON.stringify(res.body);
    for (const secret of [smtpPassword, token, getConfig().jwtSecret, getConfig().encryptionKey.toString("base64")]) expect(text).not.toContain(secret);
    expect((await api.get("/health?full=yes", { token })).status).toBe(400);
  }, 30_000);
});

describe("the doctor's payments row", () => {
  const paymentsCheck = ALL_CHECKS.filter((c) => c.name === "payments");
  async function paymentsRow(extra: Record<string, string> = {}) {
    const { env, config } = configWith(extra);
    const report = await runDoctor({ config, env, database: processDatabase(config), runner: "cli" }, paymentsCheck);
    return { report, row: report.checks[0]! };
  }

  it("shows payments off, not failed, when Stripe is not set up", async () => {
    const { report, row } = await paymentsRow();
    expect(row).toMatchObject({ check: "payments", status: "ok", finding: expect.stringMatching(/^off: .*cannot set a price/) });
    expect(report.status).toBe("ok");
  });

  it("fails keys Stripe refuses, warns of a missing or disabled webhook endpoint, and passes a listening one, never showing a key", async () => {
    const stripe = await startFakeStripe();
    try {
      const keys = { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, STRIPE_API_URL: stripe.url };
      const wrongKey = `sk_test_${"x".repeat(24)}`;
      const refused = await paymentsRow({ ...keys, STRIPE_SECRET_KEY: wrongKey });
      expect(refused.row).toMatchObject({ status: "fail", finding: expect.stringContaining("Stripe refused STRIPE_SECRET_KEY"), fix: expect.stringContaining("API keys") });
      expect(JSON.stringify(refused.report)).not.toContain(wrongKey);

      const missing = await paymentsRow(keys);
      expect(missing.row).toMatchObject({
        status: "warn",
        finding: expect.stringContaining("no webhook endpoint at http://booking.test/api/v1/hooks/stripe"),
        fix: expect.stringMatching(/^add the webhook endpoint http:\/\/booking\.test\/api\/v1\/hooks\/stripe at Stripe .*checkout\.session\.completed, checkout\.session\.async_payment_succeeded, checkout\.session\.async_payment_failed, checkout\.session\.expired/),
      });

      stripe.addWebhookEndpoint("http://booking.test/api/v1/hooks/stripe");
      const listening = await paymentsRow(keys);
      expect(listening.row).toMatchObject({ status: "ok", finding: expect.stringContaining("on (test mode)") });
      expect(JSON.stringify(listening.report)).not.toContain(stripe.secretKey);
      expect(JSON.stringify(listening.report)).not.toContain(stripe.webhookSecret);
    } finally {
      await stripe.close();
    }
  });

  it("warns of a webhook endpoint disabled at Stripe", async () => {
    const stripe = await startFakeStripe();
    try {
      stripe.addWebhookEndpoint("http://booking.test/api/v1/hooks/stripe", undefined, "disabled");
      const { row } = await paymentsRow({ STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, STRIPE_API_URL: stripe.url });
      expect(row).toMatchObject({ status: "warn", finding: expect.stringContaining("is disabled at Stripe"), fix: expect.stringContaining("enable the endpoint") });
    } finally {
      await stripe.close();
    }
  });
});
