import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { DateTime } from "luxon";
import { post, start } from "./support/server";

// Several instances of the service on one PostgreSQL, the shape a user grows into: what one
// writes, the other's slot list shows at once (PostgreSQL NOTIFY invalidates its cache, long
// before the cache's 15 s expiry), and rate-limit counters are shared (kept in PostgreSQL).

test("a booking made on one instance disappears from the other's slot list at once", async () => {
  const url = process.env.TEST_DATABASE_URL;
  test.skip(!url && process.env.CI !== "true", "TEST_DATABASE_URL is not set: skipping the two-instance PostgreSQL run");
  expect(url, "CI=true requires TEST_DATABASE_URL").toBeTruthy();
  const env = {
    DATABASE_URL: url!,
    JWT_SECRET: randomBytes(32).toString("hex"),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    RATE_LIMITS: "off",
  };
  const a = await start({ ...env, DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-a-")) });
  const b = await start({ ...env, DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-b-")) });
  try {
    const username = `two${Date.now().toString(36)}`;
    const email = `${username}@example.com`;
    expect((await post(`${a.url}/api/v1/auth/register`, { email, password: "two-instances", fullName: "Two", username, timezone: "UTC" })).status).toBe(201);
    const token = (await post(`${a.url}/api/v1/auth/login`, { email, password: "two-instances" })).body.accessToken;
    const date = DateTime.utc().plus({ days: 3 }).toISODate()!;
    const put = await fetch(`${a.url}/api/v1/me/availability`, {
      method: "PUT",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ minNoticeHours: 0, maxAdvanceDays: 30, weeklyRules: [], dateOverrides: [{ date, available: true, intervals: [{ startTime: "09:00", endTime: "10:00" }] }] }),
    });
    expect(put.status).toBe(200);
    expect((await post(`${a.url}/api/v1/me/event-types`, { slug: "sync", title: "Sync", durationMinutes: 30 }, token)).status).toBe(201);

    const slotsOnB = async () => {
      const res = await fetch(`${b.url}/api/v1/public/${username}/sync/slots?from=${date}&to=${date}&timezone=UTC`);
      return ((await res.json()).slots as { startTime: string }[]).map((s) => s.startTime);
    };
    expect(await slotsOnB()).toEqual([`${date}T09:00:00Z`, `${date}T09:30:00Z`]); // now cached on B

    const booked = await fetch(`${a.url}/api/v1/public/${username}/sync/bookings`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
      body: JSON.stringify({ startTime: `${date}T09:00:00Z`, guestName: "Guest", guestEmail: `g-${randomUUID()}@example.com`, guestTimezone: "UTC" }),
    });
    expect(booked.status).toBe(201);
    await expect.poll(slotsOnB, { timeout: 3_000, intervals: [50, 100, 250] }).toEqual([`${date}T09:30:00Z`]);

    // B refuses the taken slot from the database, whatever its cache says.
    const again = await fetch(`${b.url}/api/v1/public/${username}/sync/bookings`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
      body: JSON.stringify({ startTime: `${date}T09:00:00Z`, guestName: "Late", guestEmail: `l-${randomUUID()}@example.com`, guestTimezone: "UTC" }),
    });
    expect(again.status).toBe(409);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});

test("two instances behind a reverse proxy (TRUST_PROXY=1) share the login limits, and a forged X-Forwarded-For does not escape them", async () => {
  const url = process.env.TEST_DATABASE_URL;
  test.skip(!url && process.env.CI !== "true", "TEST_DATABASE_URL is not set: skipping the two-instance PostgreSQL run");
  expect(url, "CI=true requires TEST_DATABASE_URL").toBeTruthy();
  const env = { DATABASE_URL: url!, JWT_SECRET: randomBytes(32).toString("hex"), ENCRYPTION_KEY: randomBytes(32).toString("base64"), TRUST_PROXY: "1" };
  const a = await start({ ...env, DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-a-")) });
  const b = await start({ ...env, DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-b-")) });
  // The proxy a user puts in front: round robin, and it appends the address it saw to X-Forwarded-For.
  const backends = [new URL(a.url), new URL(b.url)];
  let turn = 0;
  const proxy = createServer((req, res) => {
    const target = backends[turn++ % backends.length]!;
    const forwarded = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, "x-forwarded-for": forwarded } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const front = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  try {
    const username = `lim${Date.now().toString(36)}`;
    const email = `${username}@example.com`;
    expect((await post(`${front}/api/v1/auth/register`, { email, password: "right-password" , fullName: "Limit", username, timezone: "UTC" })).status).toBe(201);
    // Ten wrong passwords, alternating instances, each claiming another client address.
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${front}/api/v1/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": `192.0.2.${i}` },
        body: JSON.stringify({ email, password: `wrong-${i}` }),
      });
      expect(res.status).toBe(401);
    }
    // Whichever instance answers, the eleventh attempt from the same real address is refused.
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${front}/api/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password: "right-password" }) });
      expect(res.status).toBe(429);
    }
  } finally {
    await new Promise((resolve) => proxy.close(resolve));
    await Promise.all([a.stop(), b.stop()]);
  }
});

test("two instances on one PostgreSQL: 40 guests at once on one round-robin start with 3 hosts make exactly 3 bookings, one per host", async () => {
  const url = process.env.TEST_DATABASE_URL;
  test.skip(!url && process.env.CI !== "true", "TEST_DATABASE_URL is not set: skipping the two-instance PostgreSQL run");
  expect(url, "CI=true requires TEST_DATABASE_URL").toBeTruthy();
  test.setTimeout(120_000);
  const env = { DATABASE_URL: url!, JWT_SECRET: randomBytes(32).toString("hex"), ENCRYPTION_KEY: randomBytes(32).toString("base64"), RATE_LIMITS: "off" };
  const a = await start({ ...env, DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-a-")) });
  const b = await start({ ...env, DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-b-")) });
  try {
    const tag = Date.now().toString(36);
    const date = DateTime.utc().plus({ days: 3 }).toISODate()!;
    const hosts: { token: string; username: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const username = `rr${i}${tag}`;
      const email = `${username}@example.com`;
      const made = await post(`${a.url}/api/v1/auth/register`, { email, password: "two-instances", fullName: `Rep ${i}`, username, timezone: "UTC" });
      expect(made.status).toBe(201);
      const token = (await post(`${a.url}/api/v1/auth/login`, { email, password: "two-instances" })).body.accessToken;
      const put = await fetch(`${a.url}/api/v1/me/availability`, {
        method: "PUT",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ minNoticeHours: 0, maxAdvanceDays: 30, weeklyRules: [], dateOverrides: [{ date, available: true, intervals: [{ startTime: "09:00", endTime: "10:00" }] }] }),
      });
      expect(put.status).toBe(200);
      hosts.push({ token, username });
    }
    const [owner, ...others] = hosts;
    const team = await post(`${a.url}/api/v1/me/teams`, { slug: `race-${tag}`, name: "Race" }, owner!.token);
    expect(team.status).toBe(201);
    for (const m of others) {
      expect((await post(`${a.url}/api/v1/me/teams/${team.body.id}/members`, { username: m.username }, owner!.token)).status).toBe(201);
      expect((await post(`${b.url}/api/v1/me/teams/${team.body.id}/accept`, {}, m.token)).status).toBe(200);
    }
    const type = await post(`${a.url}/api/v1/me/teams/${team.body.id}/event-types`, { slug: "demo", title: "Demo", durationMinutes: 30, schedulingType: "round_robin" }, owner!.token);
    expect(type.status).toBe(201);

    const results = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const res = await fetch(`${(i % 2 ? b : a).url}/api/v1/public/teams/race-${tag}/demo/bookings`, {
          method: "POST",
          headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
          body: JSON.stringify({ startTime: `${date}T09:00:00Z`, guestName: `Guest ${i}`, guestEmail: `g${i}-${randomUUID()}@example.com`, guestTimezone: "UTC" }),
        });
        return { status: res.status, body: await res.json() };
      }),
    );
    expect(results.filter((r) => r.status !== 201 && r.status !== 409)).toEqual([]);
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error === "slot_unavailable")).toBe(true);
    // One booking for each host.
    for (const h of hosts) {
      const mine = await fetch(`${b.url}/api/v1/me/bookings`, { headers: { authorization: `Bearer ${h.token}` } });
      const list = (await mine.json()).data as { team: { slug: string } | null }[];
      expect(list.filter((x) => x.team?.slug === `race-${tag}`)).toHaveLength(1);
    }
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});

test("two instances on one PostgreSQL: 24 guests at once on 24 different starts of one day with perDay 2 make exactly 2 bookings", async () => {
  const url = process.env.TEST_DATABASE_URL;
  test.skip(!url && process.env.CI !== "true", "TEST_DATABASE_URL is not set: skipping the two-instance PostgreSQL run");
  expect(url, "CI=true requires TEST_DATABASE_URL").toBeTruthy();
  test.setTimeout(120_000);
  const env = { DATABASE_URL: url!, JWT_SECRET: randomBytes(32).toString("hex"), ENCRYPTION_KEY: randomBytes(32).toString("base64"), RATE_LIMITS: "off" };
  const a = await start({ ...env, DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-a-")) });
  const b = await start({ ...env, DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-b-")) });
  try {
    const username = `lim${Date.now().toString(36)}`;
    const email = `${username}@example.com`;
    expect((await post(`${a.url}/api/v1/auth/register`, { email, password: "two-instances", fullName: "Limit", username, timezone: "UTC" })).status).toBe(201);
    const token = (await post(`${a.url}/api/v1/auth/login`, { email, password: "two-instances" })).body.accessToken;
    const date = DateTime.utc().plus({ days: 3 }).toISODate()!;
    const put = await fetch(`${a.url}/api/v1/me/availability`, {
      method: "PUT",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ minNoticeHours: 0, maxAdvanceDays: 30, weeklyRules: [], dateOverrides: [{ date, available: true, intervals: [{ startTime: "08:00", endTime: "20:00" }] }] }),
    });
    expect(put.status).toBe(200);
    expect((await post(`${a.url}/api/v1/me/event-types`, { slug: "capped", title: "Capped", durationMinutes: 30, limits: { perDay: 2 } }, token)).status).toBe(201);

    // Every start of the day a different guest, half through each instance: no two overlap, so
    // only the limit (counted under the host's lock inside each booking's transaction) stops them.
    const starts = Array.from({ length: 24 }, (_, i) => DateTime.fromISO(`${date}T08:00:00Z`).plus({ minutes: 30 * i }).toUTC().toISO({ suppressMilliseconds: true })!);
    const results = await Promise.all(
      starts.map(async (startTime, i) => {
        const res = await fetch(`${(i % 2 ? b : a).url}/api/v1/public/${username}/capped/bookings`, {
          method: "POST",
          headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
          body: JSON.stringify({ startTime, guestName: `Guest ${i}`, guestEmail: `g${i}-${randomUUID()}@example.com`, guestTimezone: "UTC" }),
        });
        return { status: res.status, body: await res.json() };
      }),
    );
    expect(results.filter((r) => r.status !== 201 && r.status !== 409)).toEqual([]);
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error === "slot_unavailable")).toBe(true);
    const mine = await fetch(`${b.url}/api/v1/me/bookings`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await mine.json()).data as unknown[]).length).toBe(2);
    // Both instances now offer nothing that day.
    for (const instance of [a, b]) {
      const res = await fetch(`${instance.url}/api/v1/public/${username}/capped/slots?from=${date}&to=${date}&timezone=UTC`);
      expect((await res.json()).slots).toEqual([]);
    }
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});

test("two instances on one PostgreSQL: 50 guests at once on one 10-seat start make exactly 10 bookings", async () => {
  const url = process.env.TEST_DATABASE_URL;
  test.skip(!url && process.env.CI !== "true", "TEST_DATABASE_URL is not set: skipping the two-instance PostgreSQL run");
  expect(url, "CI=true requires TEST_DATABASE_URL").toBeTruthy();
  test.setTimeout(120_000);
  const env = { DATABASE_URL: url!, JWT_SECRET: randomBytes(32).toString("hex"), ENCRYPTION_KEY: randomBytes(32).toString("base64"), RATE_LIMITS: "off" };
  const a = await start({ ...env, DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-a-")) });
  const b = await start({ ...env, DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-b-")) });
  try {
    const username = `seat${Date.now().toString(36)}`;
    const email = `${username}@example.com`;
    expect((await post(`${a.url}/api/v1/auth/register`, { email, password: "two-instances", fullName: "Seats", username, timezone: "UTC" })).status).toBe(201);
    const token = (await post(`${a.url}/api/v1/auth/login`, { email, password: "two-instances" })).body.accessToken;
    const date = DateTime.utc().plus({ days: 3 }).toISODate()!;
    const put = await fetch(`${a.url}/api/v1/me/availability`, {
      method: "PUT",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ minNoticeHours: 0, maxAdvanceDays: 30, weeklyRules: [], dateOverrides: [{ date, available: true, intervals: [{ startTime: "09:00", endTime: "10:00" }] }] }),
    });
    expect(put.status).toBe(200);
    const made = await post(`${a.url}/api/v1/me/event-types`, { slug: "class", title: "Class", durationMinutes: 60, seats: { max: 10, showRemaining: true } }, token);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const startTime = `${date}T09:00:00Z`;
    // Cached on both instances before the rush.
    for (const instance of [a, b]) {
      const res = await fetch(`${instance.url}/api/v1/public/${username}/class/slots?from=${date}&to=${date}&timezone=UTC`);
      expect((await res.json()).slots).toEqual([expect.objectContaining({ startTime, seatsRemaining: 10 })]);
    }

    const results = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const res = await fetch(`${(i % 2 ? b : a).url}/api/v1/public/${username}/class/bookings`, {
          method: "POST",
          headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
          body: JSON.stringify({ startTime, guestName: `Guest ${i}`, guestEmail: `g${i}-${randomUUID()}@example.com`, guestTimezone: "UTC" }),
        });
        return { status: res.status, body: await res.json() };
      }),
    );
    expect(results.filter((r) => r.status !== 201 && r.status !== 409)).toEqual([]);
    const won = results.filter((r) => r.status === 201);
    expect(won).toHaveLength(10);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error === "slot_unavailable")).toBe(true);
    expect(won.map((r) => r.body.seat.taken).sort((x: number, y: number) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const mine = await fetch(`${b.url}/api/v1/me/bookings?when=upcoming`, { headers: { authorization: `Bearer ${token}` } });
    const list = (await mine.json()).data as { status: string; seat: { taken: number; max: number } }[];
    expect(list.filter((x) => x.status === "confirmed")).toHaveLength(10);
    for (const x of list) expect(x.seat).toEqual({ taken: 10, max: 10 });
    // Full on both instances.
    for (const instance of [a, b]) {
      await expect
        .poll(async () => (await (await fetch(`${instance.url}/api/v1/public/${username}/class/slots?from=${date}&to=${date}&timezone=UTC`)).json()).slots, { timeout: 3_000 })
        .toEqual([]);
    }
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});

test("an API key revoked on one instance is refused by the other at once, and its count is shared", async () => {
  const url = process.env.TEST_DATABASE_URL;
  test.skip(!url && process.env.CI !== "true", "TEST_DATABASE_URL is not set: skipping the two-instance PostgreSQL run");
  expect(url, "CI=true requires TEST_DATABASE_URL").toBeTruthy();
  const env = { DATABASE_URL: url!, JWT_SECRET: randomBytes(32).toString("hex"), ENCRYPTION_KEY: randomBytes(32).toString("base64") };
  const a = await start({ ...env, DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-a-")) });
  const b = await start({ ...env, DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-b-")) });
  try {
    const username = `key${Date.now().toString(36)}`;
    const email = `${username}@example.com`;
    expect((await post(`${a.url}/api/v1/auth/register`, { email, password: "two-instances", fullName: "Keys", username, timezone: "UTC" })).status).toBe(201);
    const token = (await post(`${a.url}/api/v1/auth/login`, { email, password: "two-instances" })).body.accessToken;
    const made = await post(`${a.url}/api/v1/me/api-keys`, { name: "Sync", scopes: ["bookings:read"] }, token);
    expect(made.status).toBe(201);
    const onB = () => fetch(`${b.url}/api/v1/me/bookings`, { headers: { authorization: `Bearer ${made.body.key}` } });
    const first = await onB();
    expect(first.status).toBe(200);
    // One counter for the key, whichever instance answers.
    const onA = await fetch(`${a.url}/api/v1/me/bookings`, { headers: { authorization: `Bearer ${made.body.key}` } });
    const left = (res: Response) => Number(/r=(\d+)/.exec(res.headers.get("ratelimit") ?? "")?.[1]);
    expect(left(onA)).toBe(left(first) - 1);

    const revoked = await fetch(`${a.url}/api/v1/me/api-keys/${made.body.id}`, { method: "DELETE", headers: { authorization: `Bearer ${token}` } });
    expect(revoked.status).toBe(204);
    // The very next request on B: no cache of keys to wait for.
    const after = await onB();
    expect(after.status).toBe(401);
    expect((await after.json()).error).toBe("unauthorized");
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});
