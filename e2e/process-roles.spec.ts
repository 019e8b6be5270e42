import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { DateTime } from "luxon";
import postgres from "postgres";
import { createScratchDatabase } from "../tests/support/scratch-database";
import { post, start } from "./support/server";

// The roles of a process in production (docs/operations.md "Running in production"): web processes with
// WORKER=off serve and run no jobs; `npm run worker` runs the jobs and serves nothing. A booking
// taken by the web process waits in the outbox until a worker, started later on the same
// PostgreSQL, sends its emails; a SIGTERM stops the worker cleanly.

const mailIn = (dataDir: string) => (existsSync(path.join(dataDir, "mail")) ? readdirSync(path.join(dataDir, "mail")).filter((f) => f.endsWith(".eml")) : []);

test("WORKER=off serves without running jobs, and `npm run worker` sends what it left", async () => {
  const baseUrl = process.env.TEST_DATABASE_URL;
  test.skip(!baseUrl && process.env.CI !== "true", "TEST_DATABASE_URL is not set: skipping the web/worker PostgreSQL run");
  expect(baseUrl, "CI=true requires TEST_DATABASE_URL").toBeTruthy();
  // A database of its own: a worker takes every due job in its database, other specs' too.
  const scratch = await createScratchDatabase(baseUrl!);
  const env = { DATABASE_URL: scratch.url, JWT_SECRET: randomBytes(32).toString("hex"), ENCRYPTION_KEY: randomBytes(32).toString("base64") };
  const webDir = mkdtempSync(path.join(tmpdir(), "booking-web-"));
  const workerDir = mkdtempSync(path.join(tmpdir(), "booking-worker-"));
  const web = await start({ ...env, DATA_DIR: webDir, WORKER: "off" });
  const sql = postgres(scratch.url, { max: 1, onnotice: () => {} });
  let worker: ReturnType<typeof spawn> | undefined;
  try {
    expect(web.output()).toContain("WORKER=off");
    const username = `roles${Date.now().toString(36)}`;
    const email = `${username}@example.com`;
    expect((await post(`${web.url}/api/v1/auth/register`, { email, password: "web-and-worker", fullName: "Role Host", username, timezone: "UTC" })).status).toBe(201);
    const token = (await post(`${web.url}/api/v1/auth/login`, { email, password: "web-and-worker" })).body.accessToken as string;
    const date = DateTime.utc().plus({ days: 3 }).toISODate()!;
    const put = await fetch(`${web.url}/api/v1/me/availability`, {
      method: "PUT",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ minNoticeHours: 0, maxAdvanceDays: 30, weeklyRules: [], dateOverrides: [{ date, available: true, intervals: [{ startTime: "09:00", endTime: "10:00" }] }] }),
    });
    expect(put.status).toBe(200);
    expect((await post(`${web.url}/api/v1/me/event-types`, { slug: "roles", title: "Roles", durationMinutes: 30 }, token)).status).toBe(201);
    const guestEmail = `guest-${randomUUID()}@example.com`;
    const booked = await fetch(`${web.url}/api/v1/public/${username}/roles/bookings`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
      body: JSON.stringify({ startTime: `${date}T09:00:00Z`, guestName: "Guest", guestEmail, guestTimezone: "UTC" }),
    });
    expect(booked.status).toBe(201);
    const bookingId = ((await booked.json()) as { id: string }).id;

    // Nobody runs jobs: the booking's event stays pending (a running worker takes it within ms).
    await new Promise((r) => setTimeout(r, 2_000));
    const pending = await sql<{ status: string }[]>`select status from outbox_jobs where kind = 'booking.created' and payload->'data'->>'id' = ${bookingId}`;
    expect(pending).toEqual([{ status: "pending" }]);
    expect(mailIn(webDir)).toEqual([]);

    // A worker on the same database (`npm run worker`, the same build) sends the emails.
    let out = "";
    worker = spawn("npm", ["run", "worker"], {
      env: { ...process.env, ...env, NODE_ENV: "production", DATA_DIR: workerDir, LOG_LEVEL: "info", PORT: String(Number(process.env.E2E_PORT ?? 3100) + 190) },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    worker.stdout!.on("data", (d) => (out += d));
    worker.stderr!.on("data", (d) => (out += d));
    const toGuest = () =>
      mailIn(workerDir)
        .map((f) => readFileSync(path.join(workerDir, "mail", f), "utf8"))
        .filter((m) => new RegExp(`^To: .*${guestEmail.replace(/[.]/g, "\\.")}`, "m").test(m)).length;
    await expect.poll(toGuest, { timeout: 60_000, intervals: [250, 500, 1000] }).toBe(1);
    const done = await sql<{ kind: string; status: string }[]>`
      select kind, status from outbox_jobs where kind = 'booking.created' and payload->'data'->>'id' = ${bookingId}`;
    expect(done).toEqual([{ kind: "booking.created", status: "done" }]);
    expect(out).toContain("serving no HTTP");
    // The web process sent nothing; the worker listens on no port (its PORT answers nothing).
    expect(mailIn(webDir)).toEqual([]);
    const workerPort = Number(process.env.E2E_PORT ?? 3100) + 190;
    await expect(fetch(`http://127.0.0.1:${workerPort}/api/v1/health`)).rejects.toThrow();

    // SIGTERM: the worker stops claiming, finishes what it holds, closes the database, exits 0.
    // (npm exits at the signal and passes no exit code on: the worker's own last words say how it
    // ended, and the process group empties.)
    process.kill(-worker.pid!, "SIGTERM");
    await expect.poll(() => out, { timeout: 15_000 }).toContain("stopped cleanly");
    expect(out).toContain("shutting down: no new jobs; the jobs in hand finish");
    expect(out).not.toContain("shutdown took too long");
    const groupAlive = () => {
      try {
        process.kill(-worker!.pid!, 0);
        return true;
      } catch {
        return false;
      }
    };
    await expect.poll(groupAlive, { timeout: 5_000 }).toBe(false);
    const running = await sql`select 1 from outbox_jobs where status = 'running'`;
    expect(running).toHaveLength(0);
  } finally {
    if (worker) {
      try {
        process.kill(-worker.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }
    await sql.end();
    await web.stop();
    await scratch.drop();
  }
});
