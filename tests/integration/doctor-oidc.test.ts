import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { ALL_CHECKS, runDoctor } from "@/lib/ops/doctor";
import { processDatabase } from "@/lib/ops/sources";
import { startOidcProvider, type LocalOidcProvider } from "../support/oidc-provider";

// The doctor's row for company sign-in (decisions §22), against a real OpenID provider: off, a
// valid discovery document with a client the provider knows, and each way it can be wrong.

let idp: LocalOidcProvider;
beforeAll(async () => {
  idp = await startOidcProvider({ redirectUris: ["http://booking.test/api/auth/callback/oidc"] });
});
afterAll(async () => {
  await idp.close();
});

const oidcCheck = ALL_CHECKS.filter((c) => c.name === "oidc sign-in");

async function oidcRow(extra: Record<string, string> = {}) {
  const env = { NODE_ENV: "test", APP_URL: "http://booking.test", DATA_DIR: mkdtempSync(path.join(tmpdir(), "doctor-oidc-")), ...extra };
  const config = parseConfig(env);
  const report = await runDoctor({ config, env, database: processDatabase(config), runner: "cli" }, oidcCheck);
  return report.checks[0]!;
}

const settings = () => ({ OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_CLIENT_SECRET: idp.clientSecret });

describe("the doctor's OIDC row", () => {
  it("is off, not failed, without OIDC settings", async () => {
    expect(await oidcRow()).toMatchObject({ check: "oidc sign-in", status: "ok", finding: expect.stringMatching(/^off: .*passwords/) });
  });

  it("passes a provider whose discovery document is valid and that knows the client, naming the redirect URI", async () => {
    const row = await oidcRow(settings());
    expect(row).toMatchObject({ status: "ok", finding: expect.stringContaining("redirect URI http://booking.test/api/auth/callback/oidc") });
    const only = await oidcRow({ ...settings(), PASSWORD_LOGIN: "off" });
    expect(only.finding).toContain("PASSWORD_LOGIN=off: the only way in");
  });

  it("fails a secret the provider refuses, without showing it", async () => {
    const wrong = "not-the-secret-0123456789";
    const row = await oidcRow({ ...settings(), OIDC_CLIENT_SECRET: wrong });
    expect(row).toMatchObject({ status: "fail", finding: expect.stringContaining("refuses OIDC_CLIENT_ID or OIDC_CLIENT_SECRET") });
    expect(JSON.stringify(row)).not.toContain(wrong);
  });

  it("fails an issuer that does not match the document's, saying the one to set", async () => {
    const row = await oidcRow({ ...settings(), OIDC_ISSUER: `${idp.issuer}/` });
    expect(row).toMatchObject({ status: "fail", finding: expect.stringContaining("names the issuer"), fix: `set OIDC_ISSUER to exactly ${idp.issuer}` });
  });

  it("fails a provider out of reach, or an address that is not one", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = await oidcRow({ ...settings(), OIDC_ISSUER: `http://127.0.0.1:${port}` });
    expect(unreachable).toMatchObject({ status: "fail", finding: expect.stringMatching(/could not be fetched \(.*ECONNREFUSED/) });

    const plain = createServer((_req, res) => res.writeHead(404).end("nothing here"));
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
    try {
      const notOidc = await oidcRow({ ...settings(), OIDC_ISSUER: `http://127.0.0.1:${(plain.address() as AddressInfo).port}` });
      expect(notOidc).toMatchObject({ status: "fail", finding: expect.stringContaining("answered 404") });
    } finally {
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
  });
});
