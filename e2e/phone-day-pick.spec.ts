import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { hasChromium } from "../playwright.config";

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "Europe/Berlin", locale: "en-GB", viewport: { width: 390, height: 700 } });

test("on a phone, picking a day brings its times into view; on a wide screen nothing moves", async ({ page, request }) => {
  const username = `day-${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  expect((await request.post("/api/v1/auth/register", { data: { email, password: "day pick password", fullName: "Dana Day", username, timezone: "Europe/Berlin" } })).status()).toBe(201);
  const token = (await (await request.post("/api/v1/auth/login", { data: { email, password: "day pick password" } })).json()).accessToken as string;
  const weeklyRules = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: "09:00", endTime: "17:00" }));
  expect((await request.put("/api/v1/me/availability", { headers: { authorization: `Bearer ${token}` }, data: { minNoticeHours: 0, maxAdvanceDays: 60, weeklyRules, dateOverrides: [] } })).status()).toBe(200);

  await page.goto(`/${username}/30min`);
  const chosen = await page.locator('td[aria-selected="true"] button').getAttribute("data-date");
  expect(chosen).toBeTruthy();
  // The last open day of the grid: the one furthest from the times below the calendar.
  const openDays = page.locator("td button[data-date]:not([aria-disabled])");
  const last = openDays.last();
  const lastDate = await last.getAttribute("data-date");
  expect(lastDate).not.toBe(chosen);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await last.click();
  const times = page.locator('[role="group"][data-zone]:not([data-preview])');
  await expect(times.getByRole("button").first()).toBeVisible();
  await expect.poll(async () => (await times.boundingBox())!.y, { message: "the day's times are scrolled into view" }).toBeLessThan(700 * 0.6);
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await page.screenshot({ path: "e2e/screenshots/phone-day-times-390.png" });

  // Beside the calendar on a wide screen: the page stays where it is.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator(`td button[data-date="${chosen}"]`).click();
  await expect(page.locator('td[aria-selected="true"] button')).toHaveAttribute("data-date", chosen!);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});
