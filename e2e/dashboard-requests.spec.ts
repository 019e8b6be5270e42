import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import type { APIRequestContext, Page } from "@playwright/test";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { createEventType, expect, openDay, test, type Host, type HostFields } from "./support/fixtures";
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

/** A host with `count` guests' requests waiting, an hour apart, three days out. */
async function hostWithRequests(registerHost: (fields: HostFields) => Promise<Host>, request: APIRequestContext, count: number) {
  const host = await registerHost({ fullName: "Rhea Host", timezone: "Europe/Berlin", prefix: "req" });
  const { username } = host;
  const day = DateTime.now().setZone("Europe/Berlin").plus({ days: 3 }).toISODate()!;
  await openDay(host, day, ["09:00", "12:00"], 30);
  await createEventType(host, { slug: "intro", title: "Intro call", durationMinutes: 30, requiresConfirmation: true });
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
  return { host, ids };
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

test("requests waiting show on the home, the Requests tab and the nav, and go as the host answers them", async ({ page, registerHost, signIn }) => {
  mkdirSync(SHOTS, { recursive: true });
  const { host, ids } = await hostWithRequests(registerHost, page.request, 2);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(host, { page });

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

test("on a phone the nav is one row with a Menu button (badge included); from lg up, one row of links", async ({ page, registerHost, signIn }) => {
  mkdirSync(SHOTS, { recursive: true });
  const { host } = await hostWithRequests(registerHost, page.request, 1);
  await signIn(host, { page });
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
