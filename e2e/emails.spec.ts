import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { startSmtpServer, type SmtpSink } from "../tests/support/smtp";
import { post, start } from "./support/server";

// Every kind of email as a person sees it: the real messages of `npm start` (read from an SMTP
// server inside the test), drawn in Chromium at a phone's width and at a mail client's 600 px.
// None scrolls sideways, the card stays within 600 px, and the buttons lead where they say.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");

let smtp: SmtpSink;
let server: Awaited<ReturnType<typeof start>>;
test.beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await start({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-emails-")), SMTP_URL: smtp.url });
});
test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

async function mailWith(to: string, subject: RegExp) {
  await expect.poll(() => smtp.mails.some((m) => m.envelopeTo.includes(to) && subject.test(m.mail.subject ?? "")), { timeout: 15_000 }).toBe(true);
  return smtp.mails.find((m) => m.envelopeTo.includes(to) && subject.test(m.mail.subject ?? ""))!.mail;
}

/**
 * The message at 320 (the narrowest phone), 390 and 600 px: no sideways scroll (the document no
 * wider than the viewport), the card within 600 px, the buttons whole, no zone written as its id,
 * a screenshot of each.
 */
async function look(page: Page, name: string, html: string, buttons: [label: string, href: string | RegExp][]) {
  for (const width of [320, 390, 600]) {
    await page.setViewportSize({ width, height: 900 });
    await page.setContent(html);
    const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(scroll, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(client);
    expect(scroll, `${name} at ${width} px is wider than the viewport`).toBeLessThanOrEqual(width);
    expect(await page.locator("body").innerText(), `${name} names a zone by its id`).not.toMatch(/\b[A-Z][a-z]+\/[A-Z][a-z_]+/);
    const card = await page.locator(".mail-card").boundingBox();
    expect(card!.width).toBeLessThanOrEqual(600);
    expect(card!.x + card!.width).toBeLessThanOrEqual(width);
    for (const [label, href] of buttons) {
      const button = page.locator("a.mail-button", { hasText: label });
      await expect(button).toBeVisible();
      if (typeof href === "string") await expect(button).toHaveAttribute("href", href);
      else await expect(button).toHaveAttribute("href", href);
      const box = (await button.boundingBox())!;
      expect(box.x + box.width, `${label} is cut off at ${width} px`).toBeLessThanOrEqual(width);
    }
    await page.screenshot({ path: `e2e/screenshots/email-${name}-${width}.png`, fullPage: true });
  }
}

test("each kind of email reads on a phone and in a 600 px pane, with its buttons", async ({ page }) => {
  const username = `mail${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  const password = "emails-e2e-secret";
  expect((await post(`${server.url}/api/v1/auth/register`, { email, password, fullName: "Ada Lovelace", username, timezone: "Europe/London" })).status).toBe(201);
  const token = (await post(`${server.url}/api/v1/auth/login`, { email, password })).body.accessToken as string;
  const first = DateTime.utc().plus({ days: 3 }).startOf("day");
  const put = await fetch(`${server.url}/api/v1/me/availability`, {
    method: "PUT",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ minNoticeHours: 0, maxAdvanceDays: 30, weeklyRules: [], dateOverrides: [{ date: first.toISODate(), available: true, intervals: [{ startTime: "09:00", endTime: "17:00" }] }] }),
  });
  expect(put.status).toBe(200);
  const typed = { durationMinutes: 30, location: "https://meet.example.com/ada-intro" };
  expect((await post(`${server.url}/api/v1/me/event-types`, { slug: "intro", title: "Intro call", ...typed }, token)).status).toBe(201);
  expect((await post(`${server.url}/api/v1/me/event-types`, { slug: "ask", title: "Consultation", requiresConfirmation: true, ...typed }, token)).status).toBe(201);
  const at = (hour: number) => first.set({ hour }).toISO({ suppressMilliseconds: true })!.replace("+00:00", "Z");
  const book = async (slug: string, startTime: string, guestEmail: string) => {
    const res = await fetch(`${server.url}/api/v1/public/${username}/${slug}/bookings`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
      // A long name: it has to wrap at 320 px, never push the card sideways.
      body: JSON.stringify({ startTime, guestName: "Grace Brewster Murray Hopper-Montgomery-Featherstonehaugh", guestEmail, guestTimezone: "America/New_York" }),
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body as { id: string; cancelUrl: string; rescheduleUrl: string };
  };

  const welcome = await mailWith(email, /^Welcome/);
  await look(page, "welcome", welcome.html as string, [["Your booking page", new RegExp(`/${username}$`)], ["Open your dashboard", /\/dashboard$/]]);

  const guestEmail = `grace-${randomUUID().slice(0, 6)}@example.com`;
  const booked = await book("intro", at(10), guestEmail);
  const confirmation = await mailWith(guestEmail, /^Confirmed/);
  await look(page, "guest-confirmation", confirmation.html as string, [
    ["Join the meeting", "https://meet.example.com/ada-intro"],
    ["See your booking", /\/booking\//],
    ["Pick another time", /\/reschedule\//],
    ["Cancel this booking", booked.cancelUrl],
  ]);
  const notice = await mailWith(email, /^New booking/);
  await look(page, "host-notification", notice.html as string, [["See it on your dashboard", new RegExp(`/dashboard/bookings\\?booking=${booked.id}$`)], ["Join the meeting", "https://meet.example.com/ada-intro"]]);

  // The guest moves it: the guest's and the host's "Rescheduled" messages, with the time it was.
  const guestToken = new URL(booked.rescheduleUrl).pathname.split("/").pop()!;
  expect((await post(`${server.url}/api/v1/public/reschedule`, { token: guestToken, startTime: at(11) })).status).toBe(200);
  const moved = await mailWith(guestEmail, /^Rescheduled/);
  await look(page, "guest-rescheduled", moved.html as string, [["See your booking", /\/booking\//], ["Cancel this booking", booked.cancelUrl]]);
  const movedHost = await mailWith(email, /^Rescheduled/);
  await look(page, "host-rescheduled", movedHost.html as string, [["See it on your dashboard", new RegExp(`/dashboard/bookings\\?booking=${booked.id}$`)]]);

  const token2 = new URL(booked.cancelUrl).pathname.split("/").pop()!;
  expect((await post(`${server.url}/api/v1/public/cancel`, { token: token2, reason: "Something came up at work, sorry" })).status).toBe(200);
  const cancelled = await mailWith(guestEmail, /^Cancelled/);
  await look(page, "cancellation", cancelled.html as string, []);
  const cancelledHost = await mailWith(email, /^Cancelled/);
  await look(page, "host-cancellation", cancelledHost.html as string, []);

  const asker = `ask-${randomUUID().slice(0, 6)}@example.com`;
  await book("ask", at(13), asker);
  const requested = await mailWith(asker, /^Requested/);
  await look(page, "request-guest", requested.html as string, [["See your booking", /\/booking\//], ["Cancel this booking", /\/cancel\//]]);
  const request = await mailWith(email, /^Booking request/);
  await look(page, "request-host", request.html as string, [["Confirm or decline it", /\/dashboard\/bookings\?booking=/]]);

  expect((await post(`${server.url}/api/v1/auth/password-reset`, { email })).status).toBe(202);
  const reset = await mailWith(email, /^Reset your password/);
  await look(page, "password-reset", reset.html as string, [["Set a new password", /\/reset-password\//]]);
});

// The reconnect email goes out only after a connection has been broken for an hour on the
// worker's clock (tests/integration/broken-calendar-notice.test.ts steps it); here the same
// module composes it, under a zone that is not UTC, and Chromium draws it like the others.
test("the reconnect email of a broken calendar reads on a phone, in English and German, the last one saying so", async ({ page }) => {
  const render = (language: string, notice: number) =>
    JSON.parse(
      execFileSync("npx", ["tsx", "--tsconfig", "e2e/support/tsconfig.render.json", "e2e/support/reconnect-mail.mts", language, String(notice)], {
        env: { ...process.env, TZ: "Asia/Kolkata" },
        encoding: "utf8",
      }),
    ) as { subject: string; html: string; text: string };
  const first = render("en", 1);
  expect(first.subject).toBe("Your Work calendar (Apple iCloud) needs reconnecting");
  // Broken at 14:05 UTC: 09:05 in the host's New York, whatever the process's zone.
  expect(first.text).toMatch(/9:05/);
  expect(first.text).not.toMatch(/This is the last reminder/);
  await look(page, "calendar-reconnect", first.html, [["Reconnect it", "https://booking.example/dashboard/calendars"]]);
  const last = render("de", 2);
  expect(last.subject).toBe("Dein Kalender Work (Apple iCloud) muss neu verbunden werden");
  await page.setContent(last.html);
  await expect(page.locator("body")).toContainText("Dies ist die letzte Erinnerung daran.");
  await expect(page.locator("body")).not.toContainText("2026-12-01T");
  await look(page, "calendar-reconnect-de", last.html, [[await page.locator("a.mail-button").innerText(), "https://booking.example/dashboard/calendars"]]);
});

// A paid session's emails (decisions §20): the late payment's refund follows a payment Stripe
// sends after the hold ended, and the paid confirmation a Checkout paid at Stripe; here the same
// modules compose them, under a zone that is not UTC, and Chromium draws them like the others.
test("the paid confirmation and the late payment's refund read on a phone, the time in the guest's zone", async ({ page }) => {
  const render = (kind: string, language: string) =>
    JSON.parse(
      execFileSync("npx", ["tsx", "--tsconfig", "e2e/support/tsconfig.render.json", "e2e/support/payment-mail.mts", kind, language], {
        env: { ...process.env, TZ: "Asia/Kolkata" },
        encoding: "utf8",
      }),
    ) as { subject: string; html: string; text: string };
  const paid = render("paid", "en");
  expect(paid.text).toMatch(/Paid: +€49\.90/);
  // 15:00 UTC: 10:00 in the guest's New York, whatever the process's zone.
  expect(paid.text).toMatch(/10:00/);
  await look(page, "paid-confirmation", paid.html, [
    ["See your booking", "https://booking.example/booking/t"],
    ["Cancel this booking", "https://booking.example/cancel/t"],
  ]);
  const late = render("late", "en");
  expect(late.subject).toBe("Your payment for Coaching was refunded");
  expect(late.text).toContain("Your payment of €49.90 for Coaching with Ada arrived after the time we held for you had been released, so nothing was booked.");
  expect(late.text).toMatch(/10:00/);
  await look(page, "payment-late", late.html, [["Book again", "https://booking.example/ada/coaching"]]);
  const lateDe = render("late", "de");
  expect(lateDe.subject).toBe("Ihre Zahlung für Coaching wurde erstattet");
  await look(page, "payment-late-de", lateDe.html, [["Erneut buchen", "https://booking.example/ada/coaching"]]);
});
