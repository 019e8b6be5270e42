import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { hasChromium } from "../playwright.config";
import { expect, test } from "./support/fixtures";
import { setUpHost } from "./support/host";
import { expectAccessible, expectNoSidewaysScroll } from "./support/page-checks";
import { start } from "./support/server";

// Meeting links (decisions §17) as people see them: the host picks "Video call (link made for
// each booking)" in the event-type form; the booking page says "Video call"; with
// VIDEO_URL_TEMPLATE the guest's pages show the booking's own link. Pictures at 1280 and 390 px.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ hostFields: { fullName: "Mia Host", timezone: "America/New_York", prefix: "ml" } });

const SHOTS = "e2e/screenshots";
const api = (p: string) => `/api/v1${p}`;

async function both(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
}

test("the host makes a video event type in the form; its booking page says Video call", async ({ page, host }) => {
  const { username } = host;
  await page.goto("/dashboard/event-types/new");
  await page.getByLabel("Title").fill("Video consult");
  await page.getByLabel("Location").fill("Room 4");
  const video = page.getByRole("checkbox", { name: /Video call \(link made for each booking\)/ });
  await video.check();
  await expect(page.getByLabel("Location")).toHaveCount(0);
  await expectAccessible(page);
  await both(page, "meeting-links-form");
  // Off again: what was typed is back.
  await video.uncheck();
  await expect(page.getByLabel("Location")).toHaveValue("Room 4");
  await video.check();
  await page.getByRole("button", { name: /Create|Save/ }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/event-types(\/|$|\?)/);

  await page.goto(`/${username}/video-consult`);
  await expect(page.getByText("Video call", { exact: true })).toBeVisible();
  await both(page, "meeting-links-booking-page");
});

test("with VIDEO_URL_TEMPLATE the guest's booking page shows the booking's own link", async ({ playwright, browser }) => {
  const server = await start({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-video-")), VIDEO_URL_TEMPLATE: "https://meet.jit.si/{room}" });
  const request = await playwright.request.newContext({ baseURL: server.url });
  const context = await browser.newContext({ baseURL: server.url });
  try {
    const { username, headers, date } = await setUpHost(request);
    const types = (await (await request.get(api("/me/event-types"), { headers })).json()).data as { id: string; slug: string }[];
    const consult = types.find((t) => t.slug === "consult")!;
    expect((await request.patch(api(`/me/event-types/${consult.id}`), { headers, data: { location: "video" } })).status()).toBe(200);
    const slots = (await (await request.get(api(`/public/${username}/consult/slots?from=${date}&to=${date}&timezone=Europe/Paris`))).json()).slots;
    const created = await request.post(api(`/public/${username}/consult/bookings`), {
      headers: { "idempotency-key": randomUUID() },
      data: { startTime: slots[0].startTime, guestName: "Vera Guest", guestEmail: `vera-${randomUUID()}@example.com`, guestTimezone: "Europe/Paris", customAnswers: { topic: "Roadmap" } },
    });
    expect(created.status()).toBe(201);
    const booking = await created.json();
    expect(booking.location).toMatch(/^https:\/\/meet\.jit\.si\/[0-9a-f]{32}$/);
    const page = await context.newPage();
    await page.goto(booking.manageUrl.replace(/^https?:\/\/[^/]+/, ""));
    await expect(page.getByRole("link", { name: booking.location })).toHaveAttribute("href", booking.location);
    await expectAccessible(page);
    await both(page, "meeting-links-manage");
  } finally {
    await context.close();
    await request.dispose();
    await server.stop();
  }
});
