import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DateTime } from "luxon";
import postgres from "postgres";
import { hasChromium } from "../playwright.config";
import { startFakeStripe, type FakeStripe } from "../tests/support/fake-stripe";
import { createScratchDatabase } from "../tests/support/scratch-database";
import { callApi, createEventType, expect, test } from "./support/fixtures";
import { start } from "./support/server";

// The host's side of paid sessions (decisions §20) in the browser: the editor's Price section
// (an amount refused at its field, then saved in minor units), the price on the event type's
// card, and the Payments page's totals and list in words, over payments written to the table
// (paid, refunded, awaiting, not paid in time). Its own `npm start` on a scratch PostgreSQL, with
// payments set up against the fake Stripe.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium; skipping browser tests");
test.skip(!process.env.TEST_DATABASE_URL, "TEST_DATABASE_URL is not set: this spec writes payments to its own PostgreSQL database");
test.use({ timezoneId: "Europe/Berlin", locale: "en-US" });

let stripe: FakeStripe;
test.beforeAll(async () => {
  stripe = await startFakeStripe();
});
test.afterAll(async () => {
  await stripe.close();
});

test("a host prices an event type and reads what guests paid", async ({ page, registerHost, signIn, shoot }) => {
  test.setTimeout(180_000);
  const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
  const server = await start({
    DATABASE_URL: scratch.url,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "dashboard-payments-")),
    JWT_SECRET: randomBytes(32).toString("hex"),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_URL: stripe.url,
  });
  const sql = postgres(scratch.url, { max: 1, onnotice: () => {} });
  try {
    const host = await registerHost({ fullName: "Ada Host", timezone: "Europe/Berlin", prefix: "pay", site: server.url });
    const eventType = await createEventType(host, { slug: "coaching", title: "Coaching session", durationMinutes: 60 });
    const site = server.url.replace("127.0.0.1", "localhost");
    await signIn(host, { page, site });

    await test.step("the Price section: an amount too small is said at its field, a right one is saved in cents", async () => {
      await page.goto(`${site}/dashboard/event-types/${eventType.id}`);
      const section = page.getByRole("region", { name: "Price" });
      await section.getByLabel("Take payment when booking").check();
      await section.getByLabel("Amount").fill("0.20");
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(section.getByText("Enter an amount such as 49.90, at least €0.50.")).toBeVisible();
      await section.getByLabel("Amount").fill("49.90");
      await expect(section.getByLabel("Currency")).toHaveValue("eur");
      await section.getByLabel(/Refund a guest's cancel until/).fill("48");
      await shoot(page, "event-type-price");
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect.poll(async () => (await callApi(server.url, "GET", "/me/event-types", { token: host.token })).body.data.find((e: { id: string }) => e.id === eventType.id)?.price).toEqual({ amount: 4990, currency: "eur", refundableUntilHours: 48 });
      await page.goto(`${site}/dashboard/event-types`);
      await expect(page.getByText("60 min · €49.90")).toBeVisible();
    });

    // Four payments of Ada's guests, written as the service writes them (bookings by trigger on their host rows).
    const now = DateTime.now();
    const insert = async (n: number, guestName: string, status: "paid" | "unpaid" | "expired", refund?: "succeeded" | "pending") => {
      const start = now.plus({ days: 3, hours: n }).startOf("hour");
      const bookingId = `bkg_${randomUUID()}`;
      const paymentId = `pay_${randomUUID()}`;
      const bookingStatus = status === "paid" ? (refund ? "cancelled" : "confirmed") : status === "unpaid" ? "awaiting_payment" : "cancelled";
      const paymentStatus = status === "paid" ? (refund ? "refunded" : "paid") : "unpaid";
      await sql`insert into bookings (id, host_id, event_type_id, status, start_time, end_time, blocked_start, blocked_end, guest_name, guest_email, guest_timezone, cancel_token_hash, payment_id, payment_status, price_amount, price_currency)
        select ${bookingId}, u.id, ${eventType.id}, ${bookingStatus}, ${start.toISO()}, ${start.plus({ hours: 1 }).toISO()}, ${start.toISO()}, ${start.plus({ hours: 1 }).toISO()},
          ${guestName}, ${`${guestName.split(" ")[0]!.toLowerCase()}@example.com`}, 'Europe/London', ${createHash("sha256").update(randomUUID()).digest("hex")}, ${paymentId}, ${paymentStatus}, 4990, 'eur'
        from users u where u.username = ${host.username}`;
      const created = now.minus({ minutes: 10 * (5 - n) });
      await sql`insert into payments (id, booking_id, event_type_id, host_id, unit_amount, amount, currency, refundable_until_hours, status, hold_expires_at, paid_at, created_at)
        select ${paymentId}, ${bookingId}, ${eventType.id}, u.id, 4990, 4990, 'eur', 48, ${status}, ${created.plus({ minutes: 15 }).toISO()}, ${status === "paid" ? created.toISO() : null}, ${created.toISO()}
        from users u where u.username = ${host.username}`;
      if (refund) {
        await sql`insert into payment_refunds (id, payment_id, booking_id, amount, reason, status, refunded_at)
          values (${`rfd_${randomUUID()}`}, ${paymentId}, ${bookingId}, 4990, 'host_cancelled', ${refund}, ${refund === "succeeded" ? now.toISO() : null})`;
      }
      return bookingId;
    };
    const paid = await insert(1, "Grace Hopper", "paid");
    await insert(2, "Alan Turing", "paid", "succeeded");
    await insert(3, "Katherine Johnson", "unpaid");
    await insert(4, "Linus Late", "expired");

    await test.step("the Payments page: totals per currency, each payment in words", async () => {
      await page.goto(`${site}/dashboard`);
      await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Payments" }).click();
      await expect(page.getByRole("heading", { name: "Payments", level: 1 })).toBeVisible();
      await expect(page.getByLabel("Net €49.90")).toBeVisible();
      await expect(page.getByText("Paid €99.80 · Refunded €49.90")).toBeVisible();
      await expect(page.getByText("Refunded €49.90 (host cancelled)")).toBeVisible();
      await expect(page.getByText(/^Awaiting payment until \d{1,2}:\d{2} [AP]M$/)).toBeVisible();
      await expect(page.getByRole("listitem").getByText("Not paid in time", { exact: true })).toBeVisible();
      await expect(page.getByText("Katherine Johnson")).toBeVisible();
      await shoot(page, "payments");

      await page.getByLabel("Status").selectOption("expired");
      await page.getByRole("button", { name: "Show" }).click();
      await expect(page).toHaveURL(/status=expired/);
      await expect(page.getByText("Linus Late")).toBeVisible();
      await expect(page.getByText("Grace Hopper")).toHaveCount(0);
    });

    await test.step("the bookings list badges a paid booking", async () => {
      await page.goto(`${site}/dashboard/bookings?booking=${paid}`);
      await expect(page.getByTestId(`booking-${paid}`).getByText("Paid €49.90")).toBeVisible();
    });
  } finally {
    await sql.end();
    await server.stop();
    await scratch.drop();
  }
});

test("without payments set up, the Payments page and the Price section say so in words", async ({ page, host, shoot }) => {
  expect(host.username).toBeTruthy();
  await page.goto("/dashboard/payments");
  await expect(page.getByText("Payments are not set up on this service.")).toBeVisible();
  await expect(page.getByText(/^No payments yet: once payments are set up/)).toBeVisible();
  await shoot(page, "payments-not-set-up");

  // The editor's Price section says the same, and its switch stays off.
  await page.goto("/dashboard/event-types/new");
  const section = page.getByRole("region", { name: "Price" });
  await expect(section.getByText(/^Payments are not set up on this service\. Its operator connects a Stripe account first/)).toBeVisible();
  await expect(section.getByLabel("Take payment when booking")).toBeDisabled();
});
