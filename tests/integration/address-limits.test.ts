import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { getConfig, parseConfig } from "@/lib/config";
import { api } from "../support/api";
import { dateIn, getSlots, guest, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, unique } from "../support/factories";
import { configure } from "../support/jobs";

withTestDatabase();

// The suite's setup raises these limits for every other file; here they are what a fresh install has.
beforeEach(() => configure({ addressLimits: parseConfig({ DATA_DIR: getConfig().dataDir }).addressLimits }));

let addressCounter = 0;
/** A client address of this test's own (in-process, the address comes from X-Forwarded-For). */
function address(): string {
  addressCounter += 1;
  return `192.0.2.${addressCounter}`;
}

const register = (ip: string) => {
  const username = unique("reg");
  return api.post(
    "/auth/register",
    { email: `${username}@example.com`, password: "correct horse battery", fullName: "New Host", username, timezone: "UTC" },
    { headers: { "x-forwarded-for": ip } },
  );
};

/** A host with a whole open day of 15-minute slots, and its slots. */
async function openDay() {
  const host = await createHost();
  const et = await createEventType(host, { durationMinutes: 15 });
  const date = dateIn(5, host.timezone);
  await openOnly(host, date, [{ startTime: "00:00", endTime: "24:00" }]);
  return { host, et, slots: await getSlots(host, et.slug, date) };
}

const bookFrom = (ip: string, username: string, slug: string, startTime: string, fields: Record<string, unknown> = {}) =>
  api.post(`/public/${username}/${slug}/bookings`, { startTime, ...guest(fields) }, { headers: { "idempotency-key": randomUUID(), "x-forwarded-for": ip } });

describe("registration per client address (LIMIT_REGISTER, default 10/1h)", () => {
  it("takes 10 sign-ups from one address, then 429 with Retry-After; another address still signs up", async () => {
    const ip = address();
    for (let i = 0; i < 10; i++) expect((await register(ip)).status).toBe(201);
    const refused = await register(ip);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(3600);
    expect(refused.headers.get("x-ratelimit-limit")).toBe("10");
    // Refused before the body is read: a taken email answers 429 too, not the 409 that names it.
    const taken = await api.post(
      "/auth/register",
      { email: "whoever@example.com", password: "x", fullName: "x", username: "x", timezone: "UTC" },
      { headers: { "x-forwarded-for": ip } },
    );
    expect(taken.status).toBe(429);
    expect((await register(address())).status).toBe(201);
  });

  it("follows the setting, and `off` lifts it", async () => {
    configure({ addressLimits: { ...getConfig().addressLimits, register: { limit: 2, windowSeconds: 60 } } });
    const ip = address();
    expect((await register(ip)).status).toBe(201);
    expect((await register(ip)).status).toBe(201);
    expect((await register(ip)).status).toBe(429);
    configure({ addressLimits: { ...getConfig().addressLimits, register: undefined } });
    expect((await register(ip)).status).toBe(201);
  });
});

describe("booking creation per client address (LIMIT_BOOKINGS_PER_ADDRESS, default 30/10m)", () => {
  it("takes 30 booking requests from one address in the window, then 429; another address still books", async () => {
    const { host, et, slots } = await openDay();
    const ip = address();
    // Six guests' emails, five bookings each: the per-email limit is not what stops the flood.
    for (let i = 0; i < 30; i++) {
      const res = await bookFrom(ip, host.username, et.slug, slots[i]!.startTime, { guestEmail: `flood-${i % 6}-${host.username}@example.com` });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const refused = await bookFrom(ip, host.username, et.slug, slots[30]!.startTime);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(600);
    expect((await bookFrom(address(), host.username, et.slug, slots[30]!.startTime)).status).toBe(201);
    // Nothing was booked by the refused request.
    const list = await api.get(`/me/bookings?limit=100&from=${dateIn(4, host.timezone)}&to=${dateIn(6, host.timezone)}`, { token: host.token });
    expect(list.body.pagination.total).toBe(31);
  });
});

describe("the per-email limit (5 an hour) and the guest's own cancel link", () => {
  it("does not count bookings the guest cancelled with their own link, nor one the host cancelled", async () => {
    const { host, et, slots } = await openDay();
    const email = `own-cancel-${randomUUID()}@example.com`;
    let slot = 0;
    const made = async () => {
      const res = await bookFrom(address(), host.username, et.slug, slots[slot++]!.startTime, { guestEmail: email });
      return res;
    };
    // Five bookings, each cancelled by the guest's own link: before, this locked the email out for an hour.
    for (let i = 0; i < 5; i++) {
      const res = await made();
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const token = (res.body.cancelUrl as string).split("/").pop();
      expect((await api.post("/public/cancel", { token })).status).toBe(200);
    }
    const kept: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await made();
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      kept.push(res.body.id);
    }
    expect((await made()).status).toBe(429);
    // A booking the host cancelled no longer stands: it stops counting too (decisions §8).
    expect((await api.post(`/me/bookings/${kept[0]}/cancel`, { reason: "double" }, { token: host.token })).status).toBe(200);
    expect((await made()).status).toBe(201);
    expect((await made()).status).toBe(429);
  });
});

describe("public slot lists per client address (LIMIT_SLOTS_PER_ADDRESS, default 60/1m)", () => {
  const listFrom = (ip: string, username: string, slug: string, date: string) =>
    api.get(`/public/${username}/${slug}/slots?from=${date}&to=${date}&timezone=UTC`, { headers: { "x-forwarded-for": ip } });

  it("answers 60 lists a minute to one address, then 429; a setting raises it, and off lifts it", async () => {
    const { host, et } = await openDay();
    const date = dateIn(5, host.timezone);
    const ip = address();
    for (let i = 0; i < 60; i++) expect((await listFrom(ip, host.username, et.slug, date)).status).toBe(200);
    const refused = await listFrom(ip, host.username, et.slug, date);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("x-ratelimit-limit")).toBe("60");
    expect((await listFrom(address(), host.username, et.slug, date)).status).toBe(200);

    configure({ addressLimits: parseConfig({ DATA_DIR: getConfig().dataDir, LIMIT_SLOTS_PER_ADDRESS: "100/1m" }).addressLimits });
    const raised = await listFrom(ip, host.username, et.slug, date);
    expect(raised.status).toBe(200);
    expect(raised.headers.get("x-ratelimit-limit")).toBe("100");
    configure({ addressLimits: parseConfig({ DATA_DIR: getConfig().dataDir, LIMIT_SLOTS_PER_ADDRESS: "off" }).addressLimits });
    const lifted = await listFrom(ip, host.username, et.slug, date);
    expect(lifted.status).toBe(200);
    expect(lifted.headers.get("x-ratelimit-limit")).toBeNull();
  });
});
