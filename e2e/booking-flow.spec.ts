import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { setUpHost } from "./support/host";
import { start } from "./support/server";

// The whole guest flow over real HTTP against `npm start`: a host sets up, a guest lists slots,
// books, and cancels with the link; per-IP limits use the socket's address, not a header.

const api = (path: string) => `/api/v1${path}`;

test("a guest lists slots in their zone, books, sees the slot gone, and cancels with the link", async ({ request }) => {
  const { username, headers, date } = await setUpHost(request);
  const slotsPath = api(`/public/${username}/consult/slots?from=${date}&to=${date}&timezone=America/New_York`);
  const listed = await request.get(slotsPath);
  expect(listed.status()).toBe(200);
  // The per-address limit is announced (its value is a setting: the suite raises it; tests/integration/address-limits.test.ts holds the default).
  expect(Number(listed.headers()["x-ratelimit-limit"])).toBeGreaterThan(0);
  const { slots } = await listed.json();
  expect(slots.map((s: any) => s.displayStart.slice(11, 16))).toEqual(["10:00", "10:30", "11:00", "11:30"]);

  const key = randomUUID();
  const body = { startTime: slots[1].startTime, guestName: "Gus Guest", guestEmail: `gus-${key}@example.com`, guestTimezone: "Europe/Paris", customAnswers: { topic: "Taxes" } };
  const created = await request.post(api(`/public/${username}/consult/bookings`), { headers: { "idempotency-key": key }, data: body });
  expect(created.status()).toBe(201);
  const booking = await created.json();
  expect(booking.cancelUrl).toMatch(new RegExp(`/cancel/[A-Za-z0-9_-]{43,}$`));
  expect(booking.confirmationMessage).toContain("Europe/Paris");

  const replay = await request.post(api(`/public/${username}/consult/bookings`), { headers: { "idempotency-key": key }, data: body });
  expect(replay.status()).toBe(201);
  expect(replay.headers()["idempotent-replayed"]).toBe("true");
  expect(await replay.json()).toEqual(booking);

  const after = (await (await request.get(slotsPath)).json()).slots.map((s: any) => s.startTime);
  expect(after).not.toContain(slots[1].startTime);

  const hostList = await (await request.get(api("/me/bookings"), { headers })).json();
  expect(hostList.data).toEqual([expect.objectContaining({ id: booking.id, status: "confirmed", customAnswers: { topic: "Taxes" } })]);

  const cancelled = await request.post(api("/public/cancel"), { data: { token: booking.cancelUrl.split("/").pop() } });
  expect(cancelled.status()).toBe(200);
  expect((await cancelled.json()).status).toBe("cancelled");
  expect((await (await request.get(slotsPath)).json()).slots.map((s: any) => s.startTime)).toContain(slots[1].startTime);
});

// On a server of its own, so that spending this address's allowance leaves the shared one alone.
test("the per-IP slot limit counts the connection's address: a forged X-Forwarded-For does not escape it", async ({ playwright }) => {
  const server = await start({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-limit-")) });
  const request = await playwright.request.newContext({ baseURL: server.url });
  try {
    const { username, date } = await setUpHost(request);
    const path = api(`/public/${username}/consult/slots?from=${date}&to=${date}&timezone=UTC`);
    for (let i = 1; i <= 60; i++) {
      const res = await request.get(path, { headers: { "x-forwarded-for": `203.0.113.${i}` } });
      expect(res.status()).toBe(200);
      expect(res.headers()["x-ratelimit-remaining"]).toBe(String(60 - i));
    }
    const limited = await request.get(path, { headers: { "x-forwarded-for": "198.51.100.77", "x-client-ip": "198.51.100.78" } });
    expect(limited.status()).toBe(429);
    expect((await limited.json()).error).toBe("rate_limited");
    expect(Number(limited.headers()["retry-after"])).toBeGreaterThan(0);
  } finally {
    await request.dispose();
    await server.stop();
  }
});

test.describe("the guest's cancel page", () => {
  test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");

  test("opening the cancelUrl shows the booking and cancels nothing; the button cancels it", async ({ page, request }) => {
    const { username, headers, date } = await setUpHost(request);
    // The host's first slot: 10:00 in New York.
    const startTime = DateTime.fromISO(`${date}T10:00`, { zone: "America/New_York" }).toUTC().toISO({ suppressMilliseconds: true });
    const created = await request.post(api(`/public/${username}/consult/bookings`), {
      headers: { "idempotency-key": randomUUID() },
      data: { startTime, guestName: "Tomo Guest", guestEmail: `tomo-${randomUUID()}@example.com`, guestTimezone: "Asia/Tokyo", customAnswers: { topic: "Plans" } },
    });
    expect(created.status()).toBe(201);
    const { cancelUrl, id } = await created.json();

    await page.goto(new URL(cancelUrl).pathname);
    await expect(page.getByRole("heading", { name: "Cancel your booking" })).toBeVisible();
    await expect(page.getByText("Consultation with Flow Host")).toBeVisible();
    await expect(page.getByText("Japan Standard Time")).toBeVisible();
    await expect(page.getByText("Tomo Guest")).toBeVisible();
    // Only looking must not cancel.
    let list = await (await request.get(api("/me/bookings"), { headers })).json();
    expect(list.data.find((b: any) => b.id === id).status).toBe("confirmed");

    await page.getByRole("button", { name: "Cancel booking…" }).click();
    await page.getByRole("button", { name: "Yes, cancel" }).click();
    await expect(page.getByRole("status")).toContainText("is cancelled");
    list = await (await request.get(api("/me/bookings"), { headers })).json();
    expect(list.data.find((b: any) => b.id === id)).toMatchObject({ status: "cancelled", cancelledBy: "guest" });

    await page.reload();
    await expect(page.getByRole("heading", { name: "This booking is cancelled" })).toBeVisible();
    await expect(page.getByRole("button", { name: /Cancel booking/ })).toHaveCount(0);
  });

  test("an unknown token is a 404 page", async ({ page }) => {
    const response = await page.goto("/cancel/not-a-real-token-0000000000000000000000000");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  });
});
