import { expect, test } from "@playwright/test";
import { hasChromium } from "../playwright.config";

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");

test("the home page renders and links to the API document", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: /scheduling without the back-and-forth/i })).toBeVisible();
  const link = page.getByRole("link", { name: "/api/v1/openapi.json" });
  await link.click();
  await expect(page).toHaveURL(/\/api\/v1\/openapi\.json$/);
  expect(JSON.parse(await page.locator("body").innerText()).openapi).toBe("3.1.0");
});
