import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { post, start } from "./support/server";

// The run contract of decisions §1, over real HTTP against the built app: `npm start` answers
// /api/v1/health within 60 s, a second start reuses the data and the generated secrets, and
// request logs are JSON lines that never carry a password or token.


test("npm start serves health within 60 s, and a restart keeps accounts, secrets and tokens", async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "booking-run-"));
  const password = "a-password-that-must-never-be-logged";
  const username = `runner${Date.now().toString(36)}`;

  const first = await start({ DATA_DIR: dataDir });
  let token: string;
  try {
    expect(first.readyMs).toBeLessThan(60_000);
    const reg = await post(`${first.url}/api/v1/auth/register`, { email: `${username}@example.com`, password, fullName: "Run Contract", username, timezone: "Europe/Paris" });
    expect(reg.status).toBe(201);
    const login = await post(`${first.url}/api/v1/auth/login`, { email: `${username}@example.com`, password });
    expect(login.status).toBe(200);
    token = login.body.accessToken;
    const requestId = reg.headers.get("x-request-id");
    expect(requestId).toBeTruthy();
    // Let the logger flush, then read the one line for the register request.
    await new Promise((r) => setTimeout(r, 300));
    const lines = first.output().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
    expect(lines).toContainEqual(expect.objectContaining({ requestId, method: "POST", route: "/api/v1/auth/register", status: 201, durationMs: expect.any(Number) }));
    expect(first.output()).not.toContain(password);
    expect(first.output()).not.toContain(token);
  } finally {
    await first.stop();
  }
  expect(existsSync(path.join(dataDir, "secrets.json"))).toBe(true);
  const secrets = readFileSync(path.join(dataDir, "secrets.json"), "utf8");

  const second = await start({ DATA_DIR: dataDir });
  try {
    const me = await fetch(`${second.url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect((await me.json()).username).toBe(username);
    expect(readFileSync(path.join(dataDir, "secrets.json"), "utf8")).toBe(secrets);
  } finally {
    await second.stop();
  }
});

test("npm start runs on PostgreSQL when DATABASE_URL is set", async () => {
  const url = process.env.TEST_DATABASE_URL;
  test.skip(!url && process.env.CI !== "true", "TEST_DATABASE_URL is not set: skipping the PostgreSQL run of npm start");
  expect(url, "CI=true requires TEST_DATABASE_URL").toBeTruthy();
  const server = await start({ DATABASE_URL: url!, DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-pg-")), NODE_ENV: "development" });
  try {
    const username = `pg${Date.now().toString(36)}`;
    const reg = await post(`${server.url}/api/v1/auth/register`, { email: `${username}@example.com`, password: "pg-password-1", fullName: "PG", username, timezone: "UTC" });
    expect(reg.status).toBe(201);
  } finally {
    await server.stop();
  }
});

test("a bad configuration stops the start with a message naming the variable", async () => {
  const proc = spawn("npm", ["start"], { env: { ...process.env, PORT: "3299", ENCRYPTION_KEY: "too-short" }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let out = "";
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      process.kill(-proc.pid!, "SIGTERM");
      resolve(null);
    }, 30_000);
    proc.once("exit", (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  expect(code).not.toBe(0);
  expect(code).not.toBeNull();
  expect(out).toContain("ENCRYPTION_KEY");
});

test("a start whose port is taken exits non-zero and says so, instead of running without HTTP", async () => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  const port = (holder.address() as AddressInfo).port;
  const dataDir = mkdtempSync(path.join(tmpdir(), "booking-port-"));
  const proc = spawn("node", ["server.mjs"], { env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let out = "";
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  try {
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        process.kill(-proc.pid!, "SIGKILL");
        resolve(null);
      }, 60_000);
      proc.once("exit", (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(code, `still running 60 s after the port was refused:\n${out}`).not.toBeNull();
    expect(code).not.toBe(0);
    expect(out).toContain("EADDRINUSE");
  } finally {
    await new Promise((resolve) => holder.close(resolve));
  }
});
