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
  ])("fails fast naming %s", (name, env) => {
    expect(() => parseConfig({ DATA_DIR: dir(), ...env })).toThrow(ConfigError);
    expect(() => parseConfig({ DATA_DIR: dir(), ...env })).toThrow(name);
  });

  it("strips a trailing slash from APP_URL and honours RATE_LIMITS=off and TRUST_PROXY=1", () => {
    const c = parseConfig({ DATA_DIR: dir(), APP_URL: "https://book.example.com/", RATE_LIMITS: "off", TRUST_PROXY: "1" });
    expect(c).toMatchObject({ appUrl: "https://book.example.com", rateLimits: false, trustProxy: true });
  });
});
