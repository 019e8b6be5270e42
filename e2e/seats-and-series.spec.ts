import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { expectAccessible, expectNoSidewaysScroll } from "./support/page-checks";

// Issue 41, the guest's side on a phone: a client books four weekly sessions and finds all four on
// the page their link opens; guests fill a group session until its last seat, and the next guest
// no longer sees that time. Pictures at 390 and 1280 px are saved.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "Europe/Berlin", locale: "en-GB", viewport: { width: 390, height: 844 } });

const SHOTS = "e2e/screenshots";
const ZONE = "Europe/Berlin";
const api = (path: string) => `/api/v1${path}`;

/** A Berlin host open 09:00–12:00 every day, with one event type of `fields`. */
async function setUpHost(request: APIRequestContext, fields: Record<string, unknown>) {
  const username = `ss-${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  const password = "seats and series password";
  expect((await request.post(api("/auth/register"), { data: { email, password, fullName: "Sara Coach", username, timezone: ZONE } })).status()).toBe(201);
  const token = (await (await request.post(api("/auth/login"), { data: { email, password } })).json()).accessToken as string;
  const headers = { authorization: `Bearer ${token}` };
  const weeklyRules = [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: "09:00", endTime: "12:00" }));
  expect((await request.put(api("/me/availability"), { headers, data: { minNoticeHours: 0, maxAdvanceDays: 60, weeklyRules, dateOverrides: [] } })).status()).toBe(200);
  const created = await request.post(api("/me/event-types"), { headers, data: { title: "Session", durationMinutes: 60, ...fields } });
  expect(created.status(), await created.text()).toBe(201);
  return { username, headers, slug: (await created.json()).slug as string };
}

async function expectNoIsoStrings(page: Page) {
  expect(await page.locator("body").innerText()).not.toMatch(/\d{4}-\d{2}-\d{2}/);
}

test("a client books four weekly sessions at 390 px and finds all four on the manage page", async ({ page, request }) => {
  const { username, slug } = await setUpHost(request, { slug: "coaching", title: "Weekly coaching", recurrence: { everyWeeks: 1, maxOccurrences: 6 } });
  await page.goto(`/${username}/${slug}`);
  const firstTime = page.locator("button[data-start]").first();
  await expect(firstTime).toBeVisible();
  const start = (await firstTime.getAttribute("data-start"))!;
  await firstTime.click();

  const sessions = page.getByLabel("Sessions");
  await expect(sessions).toHaveValue("1");
  await sessions.selectOption({ label: "4 sessions, every week" });
  const dates = page.getByTestId("series-dates").getByRole("listitem");
  await expect(dates).toHaveCount(4);
  // Every date at the same local time, a week apart, all free.
  const first = DateTime.fromISO(start, { zone: ZONE });
  for (let k = 0; k < 4; k++) {
    await expect(dates.nth(k)).toContainText(first.plus({ weeks: k }).toFormat("LLLL d, yyyy"));
    await expect(dates.nth(k)).toContainText(first.toFormat("HH:mm"));
    await expect(dates.nth(k)).toHaveAttribute("data-available", "true");
  }
  await page.getByLabel("Your name").fill("Cleo Client");
  await page.getByLabel("Email").fill(`cleo-${randomUUID().slice(0, 6)}@example.com`);
  await expectNoSidewaysScroll(page);
  await expectNoIsoStrings(page);
  await page.screenshot({ path: `${SHOTS}/series-form-390.png`, fullPage: true });
  await page.getByRole("button", { name: "Confirm booking" }).click();

  const booked = page.getByTestId("booked-series").getByRole("listitem");
  await expect(booked).toHaveCount(4);
  await expectNoIsoStrings(page);
  await page.screenshot({ path: `${SHOTS}/series-confirmation-390.png`, fullPage: true });

  await page.getByRole("link", { name: "Your booking's page" }).click();
  const series = page.getByTestId("series").getByRole("listitem");
  await expect(series).toHaveCount(4);
  await expect(series.first()).toHaveAttribute("aria-current", "page");
  for (let k = 1; k < 4; k++) await expect(series.nth(k).getByRole("link")).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectNoIsoStrings(page);
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/series-manage-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${SHOTS}/series-manage.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });

  // The third session's own page; from it, cancel it and the one after it.
  await series.nth(2).getByRole("link").click();
  await expect(page.getByTestId("series").getByRole("listitem").nth(2)).toHaveAttribute("aria-current", "page");
  const ownPage = page.url();
  await page.getByRole("link", { name: "Cancel booking" }).click();
  await page.getByLabel("This and all following sessions").check();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${SHOTS}/series-cancel-390.png`, fullPage: true });
  await page.getByRole("button", { name: "Cancel booking…" }).click();
  await page.getByRole("button", { name: "Yes, cancel" }).click();
  await expect(page.getByRole("status")).toContainText("Your booking is cancelled");
  await page.goto(ownPage);
  const after = page.getByTestId("series").getByRole("listitem");
  await expect(after.nth(0)).toHaveAttribute("data-status", "confirmed");
  await expect(after.nth(1)).toHaveAttribute("data-status", "confirmed");
  await expect(after.nth(2)).toHaveAttribute("data-status", "cancelled");
  await expect(after.nth(3)).toHaveAttribute("data-status", "cancelled");
});

test("guests take a group session's seats until the last one, and the next guest no longer sees the time", async ({ page, request }) => {
  const { username, slug } = await setUpHost(request, { slug: "workshop", title: "Group workshop", seats: { max: 2, showRemaining: true } });
  const book = async (name: string) => {
    await page.goto(`/${username}/${slug}`);
    const time = page.locator("button[data-start]").first();
    await expect(time).toBeVisible();
    const start = (await time.getAttribute("data-start"))!;
    await time.click();
    await page.getByLabel("Your name").fill(name);
    await page.getByLabel("Email").fill(`${name.toLowerCase().replace(" ", ".")}-${randomUUID().slice(0, 6)}@example.com`);
    await page.getByRole("button", { name: "Confirm booking" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    return start;
  };

  await page.goto(`/${username}/${slug}`);
  const firstTime = page.locator("button[data-start]").first();
  await expect(firstTime).toContainText("2 seats left");
  await expectNoIsoStrings(page);
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/seats-page-390.png`, fullPage: true });

  const taken = await book("Ann Guest");
  await page.goto(`/${username}/${slug}`);
  const same = page.locator(`button[data-start="${taken}"]`);
  await expect(same).toContainText("1 seat left");
  await same.click();
  await expect(page.getByText("1 of 2 seats left")).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/seats-last-seat-390.png`, fullPage: true });
  await page.getByLabel("Your name").fill("Ben Guest");
  await page.getByLabel("Email").fill(`ben-${randomUUID().slice(0, 6)}@example.com`);
  await page.getByRole("button", { name: "Confirm booking" }).click();
  await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();

  // The third guest: that time is gone; the next one still has both seats.
  await page.goto(`/${username}/${slug}`);
  await expect(page.locator("button[data-start]").first()).toBeVisible();
  await expect(page.locator(`button[data-start="${taken}"]`)).toHaveCount(0);
  await expect(page.locator("button[data-start]").first()).toContainText("2 seats left");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${SHOTS}/seats-page.png`, fullPage: true });
});
