import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { startFakeStripe, type FakeStripe } from "../tests/support/fake-stripe";
import { createScratchDatabase } from "../tests/support/scratch-database";
import { post, start } from "./support/server";

// A paid session from the guest's side (decisions §20), against a server of its own whose Stripe
// is tests/support/fake-stripe.ts (the official library on Stripe's wire format, a hosted test
// Checkout page whose Pay button sends the signed event): the booking page shows the price and
// goes on to pay; Checkout returns to the booking's page, which says it is paid; the cancel page
// says before the click whether the cancel is refunded, and the refund reaches Stripe or not.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "Europe/Berlin", locale: "en-US" });

const SHOTS = "e2e/screenshots";

let fake: FakeStripe;
let database: Awaited<ReturnType<typeof createScratchDatabase>>;
let server: Awaited<ReturnType<typeof start>>;

test.beforeAll(async () => {
  const base = process.env.TEST_DATABASE_URL;
  test.skip(!base && process.env.CI !== "true", "TEST_DATABASE_URL is not set: skipping the paid sessions' run");
  expect(base, "CI=true requires TEST_DATABASE_URL").toBeTruthy();
  fake = await startFakeStripe();
  database = await createScratchDatabase(base!);
  server = await start((port) => ({
    APP_URL: `http://127.0.0.1:${port}`,
    STRIPE_SECRET_KEY: fake.secretKey,
    STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
    STRIPE_API_URL: fake.url,
    DATABASE_URL: database.url,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-payments-")),
    JWT_SECRET: randomBytes(32).toString("hex"),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
  }));
  fake.setWebhookUrl(`${server.url}/api/v1/hooks/stripe`);
});

test.afterAll(async () => {
  await server?.stop();
  await fake?.close();
  await database?.drop();
});

/** The page at a desktop's and a phone's width, photographed whole; nothing scrolls sideways. */
async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(scroll, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(client);
    await page.screenshot({ path: `${SHOTS}/payments-${name}-${width}.png`, fullPage: true });
  }
}

/** A host with two paid event types on a day three days ahead: refundable until 24 hours before, and until 30 days before (so never, here). */
async function paidHost() {
  const username = `pay${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  const password = "payments-e2e-secret";
  expect((await post(`${server.url}/api/v1/auth/register`, { email, password, fullName: "Ada Coach", username, timezone: "Europe/Berlin" })).status).toBe(201);
  const token = (await post(`${server.url}/api/v1/auth/login`, { email, password })).body.accessToken as string;
  const day = DateTime.now().setZone("Europe/Berlin").plus({ days: 3 }).toISODate()!;
  const put = await fetch(`${server.url}/api/v1/me/availability`, {
    method: "PUT",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ minNoticeHours: 0, maxAdvanceDays: 30, weeklyRules: [], dateOverrides: [{ date: day, available: true, intervals: [{ startTime: "09:00", endTime: "17:00" }] }] }),
  });
  expect(put.status).toBe(200);
  for (const [slug, hours] of [["coaching", 24], ["strict", 720]] as const) {
    const made = await post(`${server.url}/api/v1/me/event-types`, { slug, title: "Coaching", durationMinutes: 60, price: { amount: 4990, currency: "eur", refundableUntilHours: hours } }, token);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
  }
  return { username, token };
}

test("a guest books a paid session, pays at Checkout, sees it paid, and cancels in the refund window and outside it", async ({ page }) => {
  test.setTimeout(180_000);
  const { username } = await paidHost();

  // The booking page: the price beside the duration, and the button that goes on to pay.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${server.url}/${username}/coaching`);
  await expect(page.getByTestId("price")).toHaveText("€49.90");
  await shoot(page, "booking-page");
  await page.locator('[data-zone="Europe/Berlin"]:not([data-preview]) button[data-start]').first().click();
  await page.getByLabel("Your name").fill("Grace Guest");
  await page.getByLabel("Email").fill(`grace-${randomUUID().slice(0, 6)}@example.com`);
  await page.getByRole("button", { name: "Continue to payment" }).click();

  // Stripe's (fake) Checkout, then back on the booking's own page, paid.
  await page.waitForURL(`${fake.url}/c/pay/**`);
  await expect(page.getByText("€49.90").first()).toBeVisible();
  await page.getByRole("button", { name: "Pay" }).click();
  await page.waitForURL(/\/booking\/[^/?]+\?payment=done$/);
  await expect(page.getByTestId("payment")).toHaveText("Paid €49.90", { timeout: 15_000 });
  await expect(page.getByRole("heading", { name: "Your booking" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Reschedule" })).toBeVisible();
  await shoot(page, "manage-paid");
  const manageUrl = page.url().replace(/\?payment=done$/, "");
  const token = new URL(manageUrl).pathname.split("/").pop()!;

  // Cancelled three days ahead: inside the 24-hour window, refunded in full (said before the click).
  await page.goto(`${server.url}/cancel/${token}`);
  await expect(page.getByTestId("refund-before")).toHaveText("You'll get a full refund of €49.90.");
  await shoot(page, "cancel-refund");
  await page.getByRole("button", { name: "Cancel booking…" }).click();
  await page.getByRole("button", { name: "Yes, cancel" }).click();
  await expect(page.getByTestId("refund-after")).toHaveText("A refund of €49.90 is on its way to you.");
  await expect.poll(() => fake.refunds.map((r) => r.amount), { timeout: 20_000 }).toEqual([4990]);
  await page.goto(manageUrl);
  await expect(page.getByTestId("payment")).toHaveText("Refunded €49.90");
  await shoot(page, "manage-refunded");

  // Refundable only until 30 days before: this cancel is not refunded, and nothing goes to Stripe.
  const booked = await fetch(`${server.url}/api/v1/public/${username}/strict/bookings`, {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
    body: JSON.stringify({
      startTime: (await (await fetch(`${server.url}/api/v1/public/${username}/strict/slots?from=${DateTime.now().plus({ days: 3 }).toISODate()}&to=${DateTime.now().plus({ days: 4 }).toISODate()}&timezone=Europe/Berlin`)).json()).slots.at(-1).startTime,
      guestName: "Grace Guest",
      guestEmail: `grace-${randomUUID().slice(0, 6)}@example.com`,
      guestTimezone: "Europe/Berlin",
    }),
  });
  const held = await booked.json();
  expect(booked.status, JSON.stringify(held)).toBe(201);
  expect(held.status).toBe("awaiting_payment");
  expect(held.confirmationMessage).toContain("is held for you until you pay");
  const heldToken = new URL(held.manageUrl).pathname.split("/").pop()!;
  // Before paying: waiting, held until a time in the guest's clock, Pay now, no Reschedule.
  await page.goto(held.manageUrl);
  await expect(page.getByTestId("payment-state")).toContainText(/Waiting for your payment – this time is held for you until \d{1,2}:\d{2}/);
  await expect(page.getByRole("link", { name: "Pay now" })).toHaveAttribute("href", held.payment.checkoutUrl);
  await expect(page.getByRole("link", { name: "Reschedule" })).toHaveCount(0);
  await shoot(page, "manage-awaiting");
  await page.goto(`${server.url}/cancel/${heldToken}`);
  await expect(page.getByTestId("refund-before")).toHaveText("Nothing has been paid yet.");
  // Back from Checkout before Stripe's event: the page says it is confirming, and looks again by itself.
  await page.goto(`${held.manageUrl}?payment=done`);
  await expect(page.getByTestId("payment-state")).toHaveText("We're confirming your payment…");
  await shoot(page, "manage-confirming");
  await fake.complete(new URL(held.payment.checkoutUrl).pathname.split("/").pop()!);
  await expect(page.getByTestId("payment")).toHaveText("Paid €49.90", { timeout: 15_000 });
  await page.goto(`${server.url}/cancel/${heldToken}`);
  await expect(page.getByTestId("refund-before")).toHaveText("It's less than 720 hours before the start: this cancellation is not refunded.");
  await shoot(page, "cancel-no-refund");
  await page.getByRole("button", { name: "Cancel booking…" }).click();
  await page.getByRole("button", { name: "Yes, cancel" }).click();
  await expect(page.getByTestId("refund-after")).toHaveText("This cancellation is not refunded.");
  await page.goto(held.manageUrl);
  await expect(page.getByTestId("payment")).toHaveText("Paid €49.90, not refunded: it was cancelled less than 720 hours before the start");
  // Nothing more went back than the first booking's refund.
  await new Promise((r) => setTimeout(r, 2_000));
  expect(fake.refunds.map((r) => r.amount)).toEqual([4990]);
});
