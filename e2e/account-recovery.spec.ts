import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { hasChromium } from "../playwright.config";
import { startSmtpServer, type SmtpSink } from "../tests/support/smtp";
import { expectNoSidewaysScroll } from "./support/page-checks";
import { post, start } from "./support/server";

// A host who forgot the password gets back in through the emailed link, then moves the public
// pages to a new username. The server is one of this spec's own, mailing an SMTP server inside
// the test, so the link is read from the message the host would get.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");

let smtp: SmtpSink;
let server: Awaited<ReturnType<typeof start>>;
/** APP_URL defaults to http://localhost:{port}: the browser uses that name, as the mailed links do. */
let base = "";
test.beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await start({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-recovery-")), SMTP_URL: smtp.url });
  base = server.url.replace("127.0.0.1", "localhost");
});
test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `e2e/screenshots/${name}${width === 390 ? "-390" : ""}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("forgot password → link by email → new password → log in; then a new username moves the public page", async ({ page }) => {
  const username = `lost-${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  const reg = await post(`${server.url}/api/v1/auth/register`, { email, password: "the old password", fullName: "Lost Host", username, timezone: "UTC" });
  expect(reg.status).toBe(201);
  expect((await post(`${server.url}/api/v1/me/event-types`, { slug: "chat", title: "Chat", durationMinutes: 30 }, (await post(`${server.url}/api/v1/auth/login`, { email, password: "the old password" })).body.accessToken)).status).toBe(201);

  let link = "";
  await test.step("ask for a link from the login page", async () => {
    await page.goto(`${base}/login`);
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
    await shoot(page, "forgot-password");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send me a reset link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "If an account uses this email" })).toBeVisible();
    // The account's welcome went to the same address at sign-up: the reset is the one with the link.
    const resets = () => smtp.mails.filter((m) => m.envelopeTo.includes(email) && (m.mail.text ?? "").includes("/reset-password/"));
    await expect.poll(() => resets().length, { timeout: 15_000 }).toBe(1);
    const text = resets()[0]!.mail.text ?? "";
    link = /(http:\/\/localhost:\d+\/reset-password\/[A-Za-z0-9_-]+)/.exec(text)![1]!;
  });

  await test.step("set a new password with the link; the link works once", async () => {
    await page.goto(link);
    await expect(page.getByRole("heading", { name: "Set a new password" })).toBeVisible();
    await shoot(page, "reset-password");
    await page.getByLabel("New password").fill("short");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByLabel("New password")).toHaveAccessibleDescription(/at least 8 characters/);
    await page.getByLabel("New password").fill("the new password");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Your password is changed" })).toBeVisible();

    await page.goto(link);
    await page.getByLabel("New password").fill("a third password");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "expired or was already used" })).toBeVisible();
    await shoot(page, "reset-password-used");
    await expect(page.getByRole("link", { name: "Ask for a new link" })).toBeVisible();
  });

  await test.step("log in with the new password", async () => {
    await page.goto(`${base}/login`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("the old password");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "incorrect" })).toBeVisible();
    await page.getByLabel("Password").fill("the new password");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(/\/dashboard/);
  });

  await test.step("change the username in settings: the old page answers 404, the new one works", async () => {
    const renamed = `found-${randomUUID().slice(0, 8)}`;
    await page.goto(`${base}/dashboard/settings`);
    await page.getByLabel("Username").fill(renamed);
    await expect(page.getByText(/Links with .* will stop working/)).toBeVisible();
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
    expect((await page.request.get(`${base}/${username}/chat`)).status()).toBe(404);
    expect((await page.request.get(`${base}/${username}`)).status()).toBe(404);
    expect((await page.request.get(`${base}/${renamed}/chat`)).status()).toBe(200);
  });

  await test.step("change the email in settings: it changes when the link at the new address is used", async () => {
    const newEmail = `found-${randomUUID().slice(0, 8)}@example.com`;
    await page.goto(`${base}/dashboard/settings`);
    await page.getByLabel("New email").fill(newEmail);
    await page.getByLabel("Your password").fill("the new password");
    await page.getByRole("button", { name: "Send confirmation link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "We sent a link to the new address" })).toBeVisible();
    await expect.poll(() => smtp.mails.filter((m) => m.envelopeTo.includes(newEmail)).length, { timeout: 15_000 }).toBe(1);
    const text = smtp.mails.find((m) => m.envelopeTo.includes(newEmail))!.mail.text ?? "";
    await page.goto(/(http:\/\/localhost:\d+\/confirm-email\/[A-Za-z0-9_-]+)/.exec(text)![1]!);
    await page.getByRole("button", { name: "Confirm new email" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Your email is now ${newEmail}` })).toBeVisible();
    await shoot(page, "confirm-email");
    expect((await post(`${server.url}/api/v1/auth/login`, { email: newEmail, password: "the new password" })).status).toBe(200);
  });
});
