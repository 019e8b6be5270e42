import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";

// The whole guest flow over real HTTP against `npm start`: a host sets up, a guest lists slots,
// books, and cancels with the link; per-IP limits use the socket's address, not a header.

const api = (path: string) => `/api/v1${path}`;

async function setUpHost(request: APIRequestContext) {
  const username = `flow-${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  const password = "correct horse battery";
  expect((await request.post(api("/auth/register"), { data: { email, password, fullName: "Flow Host", username, timezone: "America/New_York" } })).status()).toBe(201);
  const token = (await (await request.post(api("/auth/login"), { data: { email, password } })).json()).accessToken as string;
  const headers = { authorization: `Bearer ${token}` };
  const date = DateTime.now().setZone("America/New_York").plus({ days: 5 }).toISODate()!;
  const availability = await request.put(api("/me/availability"), {
    headers,
    data: { minNoticeHours: 0, maxAdvanceDays: 30, weeklyRules: [], dateOverrides: [{ date, available: true, intervals: [{ startTime: "10:00", endTime: "12:00" }] }] },
  });
  expect(availability.status()).toBe(200);
  const et = await request.post(api("/me/event-types"), {
    headers,
    data: { slug: "consult", title: "Consultation", durationMinutes: 30, customQuestions: [{ id: "topic", label: "Topic", required: true }] },
  });
  expect(et.status()).toBe(201);
  return { username, headers, date };
}

test("a guest lists slots in their zone, books, sees the slot gone, and cancels with the link", async ({ request }) => {
  const { username, headers, date } = await setUpHost(request);
  const slotsPath = api(`/public/${username}/consult/slots?from=${date}&to=${date}&timezone=America/New_York`);
  const listed = await request.get(slotsPath);
  expect(listed.status()).toBe(200);
  expect(listed.headers()["x-ratelimit-limit"]).toBe("60");
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

test("the per-IP slot limit counts the connection's address: a forged X-Forwarded-For does not escape it", async ({ request }) => {
  const { username, date } = await setUpHost(request);
  const path = api(`/public/${username}/consult/slots?from=${date}&to=${date}&timezone=UTC`);
  // Earlier requests of this run may already count against this address: spend what is left.
  const first = await request.get(path, { headers: { "x-forwarded-for": "203.0.113.1" } });
  let remaining = Number(first.headers()["x-ratelimit-remaining"]);
  while (remaining > 0) {
    const res = await request.get(path, { headers: { "x-forwarded-for": `203.0.113.${remaining % 250}` } });
    expect(res.status()).toBe(200);
    remaining = Number(res.headers()["x-ratelimit-remaining"]);
  }
  const limited = await request.get(path, { headers: { "x-forwarded-for": "198.51.100.77", "x-client-ip": "198.51.100.78" } });
  expect(limited.status()).toBe(429);
  expect((await limited.json()).error).toBe("rate_limited");
  expect(Number(limited.headers()["retry-after"])).toBeGreaterThan(0);
});

test.describe("the guest's cancel page", () => {
  test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");

  test("opening the cancelUrl shows the booking and cancels nothing; the button cancels it", async ({ page, request }) => {
    const { username, headers, date } = await setUpHost(request);
    // The host's first slot (10:00 New York), without a slot list: the test above spent this address's limit.
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
    await expect(page.getByText("(Asia/Tokyo)")).toBeVisible();
    await expect(page.getByText("Tomo Guest")).toBeVisible();
    // Only looking must not cancel.
    let list = await (await request.get(api("/me/bookings"), { headers })).json();
    expect(list.data.find((b: any) => b.id === id).status).toBe("confirmed");

    await page.getByRole("button", { name: "Cancel booking" }).click();
    await expect(page.getByRole("status")).toContainText("is cancelled");
    list = await (await request.get(api("/me/bookings"), { headers })).json();
    expect(list.data.find((b: any) => b.id === id)).toMatchObject({ status: "cancelled", cancelledBy: "guest" });

    await page.reload();
    await expect(page.getByRole("heading", { name: "This booking is cancelled" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Cancel booking" })).toHaveCount(0);
  });

  test("an unknown token is a 404 page", async ({ page }) => {
    const response = await page.goto("/cancel/not-a-real-token-0000000000000000000000000");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  });
});
