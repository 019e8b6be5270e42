import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { expectAccessible, expectNoSidewaysScroll } from "./support/page-checks";

// Requests in sight: a host with guests' requests waiting sees "2 requests waiting" on the
// dashboard home, a count on the Bookings page's Requests tab and a badge by Bookings in the nav
// (on a phone, on the Menu button), and every one of them follows as the host confirms and
// declines. The phone's nav is one row with a Menu button that opens the sections, closing on
// Escape and on navigation (a tablet's 768 px too); from lg (1024 px) up the sections are one row of links.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium; skipping browser tests");
test.use({ timezoneId: "Europe/Berlin", locale: "en-US" });

const SHOTS = "test-results/dashboard-requests";
const api = (path: string) => `/api/v1${path}`;

async function hostWithRequests(request: APIRequestContext, count: number) {
  const username = `req-${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  const password = "requests password 1";
  expect((await request.post(api("/auth/register"), { data: { email, password, fullName: "Rhea Host", username, timezone: "Europe/Berlin" } })).status()).toBe(201);
  const token = (await (await request.post(api("/auth/login"), { data: { email, password } })).json()).accessToken as string;
  const headers = { authorization: `Bearer ${token}` };
  const day = DateTime.now().setZone("Europe/Berlin").plus({ days: 3 }).toISODate()!;
  const availability = await request.put(api("/me/availability"), {
    headers,
    data: { minNoticeHours: 0, maxAdvanceDays: 30, weeklyRules: [], dateOverrides: [{ date: day, available: true, intervals: [{ startTime: "09:00", endTime: "12:00" }] }] },
  });
  expect(availability.status()).toBe(200);
  expect((await request.post(api("/me/event-types"), { headers, data: { slug: "intro", title: "Intro call", durationMinutes: 30, requiresConfirmation: true } })).status()).toBe(201);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const startTime = DateTime.fromISO(`${day}T09:00`, { zone: "Europe/Berlin" }).plus({ hours: i }).toUTC().toISO({ suppressMilliseconds: true });
    const res = await request.post(api(`/public/${username}/intro/bookings`), {
      headers: { "idempotency-key": randomUUID() },
      data: { startTime, guestName: `Guest ${i + 1}`, guestEmail: `guest-${i + 1}-${username}@example.com`, guestTimezone: "America/New_York" },
    });
    expect(res.status(), await res.text()).toBe(201);
    ids.push((await res.json()).id as string);
  }
  return { email, password, ids };
}

async function logIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { name: "Hello, Rhea Host" })).toBeVisible();
}

async function photograph(page: Page, name: string, widths: readonly number[] = [1280, 390]) {
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(150);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const nav = (page: Page) => page.getByRole("navigation", { name: "Dashboard" });

test("requests waiting show on the home, the Requests tab and the nav, and go as the host answers them", async ({ page }) => {
  mkdirSync(SHOTS, { recursive: true });
  const { email, password, ids } = await hostWithRequests(page.request, 2);
  await page.setViewportSize({ width: 1280, height: 900 });
  await logIn(page, email, password);

  await test.step("the home says how many wait, in the first HTML too", async () => {
    const card = page.getByRole("region", { name: "2 requests waiting" });
    await expect(card).toBeVisible();
    await expect(card).toContainText("Guests are waiting for your answer.");
    await expect(page.getByText("No confirmed bookings yet: the requests above wait for your answer.")).toBeVisible();
    await expect(nav(page).getByRole("link", { name: "Bookings, 2 requests waiting" })).toBeVisible();
    const html = await (await page.request.get("/dashboard")).text();
    expect(html).toMatch(/<h2[^>]*>2 requests waiting<\/h2>/);
    expect(html).toContain('aria-label="Bookings, 2 requests waiting"');
    await expectAccessible(page);
    await photograph(page, "home-requests");
  });

  await test.step("the card leads to the Requests tab, which counts them", async () => {
    await page.getByRole("link", { name: "Answer the requests" }).click();
    await expect(page).toHaveURL(/\/dashboard\/bookings\?view=requests$/);
    await expect(page.getByRole("tab", { name: "Requests (2 waiting)" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByTestId(`booking-${ids[0]}`)).toBeVisible();
    expect(await (await page.request.get("/dashboard/bookings?view=requests")).text()).toContain("(2 waiting)");
    await expectAccessible(page);
    await photograph(page, "requests-tab");
  });

  await test.step("confirming one counts down everywhere at once", async () => {
    await page.getByTestId(`booking-${ids[0]}`).getByRole("button", { name: "Confirm" }).click();
    await expect(page.getByRole("tab", { name: "Requests (1 waiting)" })).toBeVisible();
    await expect(nav(page).getByRole("link", { name: "Bookings, 1 request waiting" })).toBeVisible();
  });

  await test.step("declining the last leaves no count anywhere", async () => {
    await page.getByTestId(`booking-${ids[1]}`).getByRole("button", { name: "Decline" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Decline request" }).click();
    await expect(page.getByText("No requests waiting for your answer.")).toBeVisible();
    await expect(page.getByRole("tab", { name: "Requests", exact: true })).toBeVisible();
    await expect(nav(page).getByRole("link", { name: "Bookings", exact: true })).toBeVisible();
    await nav(page).getByRole("link", { name: "Home" }).click();
    await expect(page.getByRole("heading", { name: "Hello, Rhea Host" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Next bookings" })).toBeVisible();
    await expect(page.getByText(/requests? waiting/)).toHaveCount(0);
    await expect(page.getByText("Intro call with Guest 1")).toBeVisible();
  });
});

test("on a phone the nav is one row with a Menu button (badge included); from lg up, one row of links", async ({ page }) => {
  mkdirSync(SHOTS, { recursive: true });
  const { email, password } = await hostWithRequests(page.request, 1);
  await logIn(page, email, password);
  const header = page.getByRole("banner");

  await test.step("at 390 px: one row, the sections behind Menu, which carries the count", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const menu = page.getByRole("button", { name: "Menu, 1 request waiting" });
    await expect(menu).toBeVisible();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(nav(page).getByRole("link", { name: "Event types" })).toBeHidden();
    // One row: the header is no taller than its buttons and its padding.
    expect((await header.boundingBox())!.height).toBeLessThan(70);
    await page.screenshot({ path: `${SHOTS}/phone-menu-closed-390.png` });

    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    const controlled = await menu.getAttribute("aria-controls");
    await expect(page.locator(`#${controlled}`)).toBeVisible();
    await expect(nav(page).getByRole("link", { name: "Bookings, 1 request waiting" })).toBeVisible();
    await expect(nav(page).getByRole("link", { name: "Home" })).toHaveAttribute("aria-current", "page");
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/phone-menu-open-390.png` });

    await page.keyboard.press("Escape");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeFocused();
    await expect(nav(page).getByRole("link", { name: "Home" })).toBeHidden();

    await menu.click();
    await nav(page).getByRole("link", { name: "Availability" }).click();
    await expect(page).toHaveURL(/\/dashboard\/availability$/);
    await expect(page.getByRole("button", { name: "Menu, 1 request waiting" })).toHaveAttribute("aria-expanded", "false");
    await expect(nav(page).getByRole("link", { name: "Availability" })).toBeHidden();
  });

  await test.step("at 768 px (a tablet): still the Menu button, the header one row", async () => {
    await page.setViewportSize({ width: 768, height: 1024 });
    await expect(page.getByRole("button", { name: "Menu, 1 request waiting" })).toBeVisible();
    expect((await header.boundingBox())!.height).toBeLessThan(70);
  });

  for (const width of [1024, 1280]) {
    await test.step(`at ${width} px: no Menu button, the sections in one row`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await expect(page.getByRole("button", { name: /^Menu/ })).toBeHidden();
      const links = nav(page).getByRole("link");
      await expect(links.first()).toBeVisible();
      const tops = new Set<number>();
      for (const link of await links.all()) if (await link.isVisible()) tops.add(Math.round((await link.boundingBox())!.y));
      expect([...tops]).toHaveLength(1);
      await expect(nav(page).getByRole("link", { name: "Bookings, 1 request waiting" })).toBeVisible();
      await expectAccessible(page);
      await page.screenshot({ path: `${SHOTS}/nav-${width}.png` });
    });
  }
});
