import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { hasChromium } from "../playwright.config";
import { expectAccessible, expectNoSidewaysScroll } from "./support/page-checks";

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");

test("the home page is a way in: sign up or log in, or the dashboard once signed in", async ({ page, request }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: /scheduling without the back-and-forth/i })).toBeVisible();
  for (const [width, suffix] of [[1280, ""], [390, "-390"]] as const) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await page.screenshot({ path: `e2e/screenshots/home${suffix}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(page.getByRole("link", { name: "Go to your dashboard" })).toHaveCount(0);
  await page.getByRole("link", { name: "Sign up free" }).click();
  await expect(page).toHaveURL(/\/register$/);
  await page.goBack();
  await page.getByRole("link", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/login$/);

  const username = `home-${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  expect((await request.post("/api/v1/auth/register", { data: { email, password: "home password 1", fullName: "Hana Home", username, timezone: "UTC" } })).status()).toBe(201);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("home password 1");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto("/");
  await expect(page.getByText("Signed in as Hana Home.")).toBeVisible();
  await expectAccessible(page);
  await expect(page.getByRole("link", { name: "Sign up free" })).toHaveCount(0);
  await page.getByRole("link", { name: "Go to your dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("developers still find the API document from the home page", async ({ page }) => {
  await page.goto("/");
  // The document the browser navigated to, read whole from its response: the page's text can be
  // read while the browser is still drawing a long document (it was cut off at 134 KB once).
  const served = page.waitForResponse((response) => /\/api\/v1\/openapi\.json$/.test(response.url()));
  await page.getByRole("link", { name: "/api/v1/openapi.json" }).click();
  await expect(page).toHaveURL(/\/api\/v1\/openapi\.json$/);
  const response = await served;
  expect(response.status()).toBe(200);
  expect(((await response.json()) as { openapi?: string }).openapi).toBe("3.1.0");
});
