import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { setUpHost } from "./support/host";
import { expectAccessible, expectNoSidewaysScroll } from "./support/page-checks";

// Every screen a guest sees, on a phone and a desktop: no time painted in a zone the guest did not
// choose, the calendar first on a phone, zones by their names, a long question label that breaks
// no page, an approval event type that says so, and the cancel page on the guest's clock.
//
// The host (support/host.ts) is in New York with 10:00–12:00 open; this browser is in Los Angeles.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "America/Los_Angeles", locale: "en-US" });

const SHOTS = "e2e/screenshots";
const api = (path: string) => `/api/v1${path}`;
const plain = (text: string) => text.replace(/[\u202f\u2009]/g, " ");
const HOST_TIMES = ["10:00 AM", "10:30 AM", "11:00 AM", "11:30 AM"];
const GUEST_TIMES = ["7:00 AM", "7:30 AM", "8:00 AM", "8:30 AM"];
const LONG_LABEL = `${"Please tell us everything about the project you would like to discuss, ".repeat(3)}the budget and the people involved`.slice(0, 200);

async function book(request: APIRequestContext, username: string, date: string, answers: Record<string, string> = { topic: "Quarterly plans" }) {
  const slots = await request.get(api(`/public/${username}/consult/slots?from=${date}&to=${date}&timezone=America/New_York`));
  const slot = ((await slots.json()).slots as { startTime: string; endTime: string }[])[0]!;
  const res = await request.post(api(`/public/${username}/consult/bookings`), {
    headers: { "idempotency-key": randomUUID() },
    data: { startTime: slot.startTime, guestName: "Lou Guest", guestEmail: `lou-${randomUUID().slice(0, 8)}@example.com`, guestTimezone: "America/Los_Angeles", customAnswers: answers },
  });
  expect(res.status()).toBe(201);
  return { ...slot, ...((await res.json()) as { manageUrl: string; cancelUrl: string }) };
}

/** Changes the set-up host's "consult" event type. */
async function patchConsult(request: APIRequestContext, headers: Record<string, string>, data: object) {
  const list = (await (await request.get(api("/me/event-types"), { headers })).json()) as { data: { id: string; slug: string }[] };
  const id = list.data.find((e) => e.slug === "consult")!.id;
  expect((await request.patch(api(`/me/event-types/${id}`), { headers, data })).status()).toBe(200);
}

/** Every clock time the page has held in its DOM from the first parsed node on, and every zone its time groups were in. */
async function recordTimes(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { seenTimes: string[]; seenZones: string[] };
    w.seenTimes = [];
    w.seenZones = [];
    const look = () => {
      const text = document.documentElement?.innerText ?? document.documentElement?.textContent ?? "";
      for (const t of text.replace(/[\u202f\u2009]/g, " ").match(/\b\d{1,2}:\d{2}( [AP]M)?/g) ?? []) if (!w.seenTimes.includes(t)) w.seenTimes.push(t);
      for (const el of document.querySelectorAll<HTMLElement>("[data-zone]")) if (!w.seenZones.includes(el.dataset.zone!)) w.seenZones.push(el.dataset.zone!);
    };
    new MutationObserver(look).observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
    // And at every frame the browser paints, whatever changed it.
    const frame = () => {
      look();
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  return () =>
    page.evaluate(() => {
      const w = window as unknown as { seenTimes: string[]; seenZones: string[] };
      return { times: w.seenTimes, zones: w.seenZones };
    });
}

for (const width of [390, 1280]) {
  test(`at ${width} px no time is ever painted in the host's zone: the first paint has the month and the host, the times come in the guest's`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    const { username } = await setUpHost(request);
    const seen = await recordTimes(page);
    // The guest's times held back until the page before them has been looked at.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\/consult\/slots\?/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`/${username}/consult`);
    // Before the guest's times: the month, the host, and words where the times will be.
    await expect(page.getByRole("grid")).toBeVisible();
    await expect(page.getByText("Flow Host")).toBeVisible();
    await expect(page.getByText("Loading available times…")).toBeVisible();
    await expect(page.getByRole("button", { name: /^Timezone: Pacific Time/ })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/booking-page-before-times-${width}.png` });
    release();
    await expect(page.getByRole("button", { name: GUEST_TIMES[0] })).toBeVisible();
    const { times, zones } = await seen();
    for (const t of HOST_TIMES) expect(times, `"${t}" (the host's zone) was in the page`).not.toContain(t);
    expect(times).toEqual(expect.arrayContaining(GUEST_TIMES));
    expect(zones).toEqual(["America/Los_Angeles"]);
    await expectAccessible(page);
  });
}

test("on a phone the calendar comes first: the month within the first screen, the zone by its name under it, the language in a footer", async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { username } = await setUpHost(request);
  await page.goto(`/${username}/consult`);
  await expect(page.getByRole("button", { name: GUEST_TIMES[0] })).toBeVisible();
  const grid = (await page.getByRole("grid").boundingBox())!;
  expect(grid.y).toBeLessThan(300);
  const zoneLine = page.getByRole("button", { name: "Timezone: Pacific Time (US & Canada) Change" });
  await expect(zoneLine).toBeVisible();
  const line = (await zoneLine.boundingBox())!;
  expect(line.y).toBeGreaterThanOrEqual(grid.y + grid.height - 1);
  // The first time is still on the first screen, under the zone line.
  const firstTime = (await page.getByRole("button", { name: GUEST_TIMES[0] }).boundingBox())!;
  expect(firstTime.y).toBeGreaterThan(line.y);
  expect(firstTime.y + firstTime.height).toBeLessThan(844);
  await expect(page.locator("footer").getByRole("combobox", { name: "Language" })).toBeVisible();
  expect((await page.locator("footer").boundingBox())!.y).toBeGreaterThan(firstTime.y);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${SHOTS}/booking-page-calendar-first-390.png`, fullPage: true });

  // Tapped, the line opens the zone picker (and names the host's zone); a zone chosen is named on the line.
  await zoneLine.click();
  await expect(page.getByText("The host's timezone: Eastern Time (US & Canada)")).toBeVisible();
  const zone = page.getByRole("combobox", { name: "Timezone" });
  await zone.fill("Berlin");
  await zone.press("Enter");
  await expect(page.getByRole("button", { name: "Timezone: Central European Time Change" })).toBeFocused();
  await expect(page.locator("[data-zone]").first()).toHaveAttribute("data-zone", "Europe/Berlin");
  await expectAccessible(page);

  await page.setViewportSize({ width: 1280, height: 800 });
  const wide = (await page.getByRole("grid").boundingBox())!;
  const wideLine = (await page.getByRole("button", { name: "Timezone: Central European Time Change" }).boundingBox())!;
  expect(wideLine.y).toBeGreaterThanOrEqual(wide.y + wide.height - 1);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${SHOTS}/booking-page-zone-line.png`, fullPage: true });
});

test("an event type that needs approval says so on its page, and its button requests the booking", async ({ page, request }) => {
  const { username, headers } = await setUpHost(request);
  await patchConsult(request, headers, { requiresConfirmation: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto(`/${username}/consult`);
    await expect(page.getByText("Flow Host confirms each booking: you send a request, and hear back by email.")).toBeVisible();
    await page.getByRole("button", { name: GUEST_TIMES[0] }).click();
    await expect(page.getByRole("button", { name: "Request booking" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Confirm booking" })).toHaveCount(0);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/booking-request-${width}.png`, fullPage: true });
  }
  await page.goto(`/${username}/consult?lang=de`);
  await page.getByRole("button", { name: GUEST_TIMES[0] }).click();
  await expect(page.getByRole("button", { name: "Buchung anfragen" })).toBeVisible();
});

test("the manage page with a 200-character question label: labels above values on a phone, nothing wider than the screen, no word broken", async ({ page, request }) => {
  const { username, headers, date } = await setUpHost(request);
  await patchConsult(request, headers, { customQuestions: [{ id: "topic", label: "Topic", required: true }, { id: "long", label: LONG_LABEL, required: false }] });
  const booking = await book(request, username, date!, { topic: "Quarterly plans", long: "A new roof for the village hall" });
  const path = new URL(booking.manageUrl).pathname;
  for (const width of [320, 390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(path);
    const details = page.getByTestId("booking-details");
    await expect(details).toContainText(LONG_LABEL);
    await expect(details).toContainText("Pacific Time (US & Canada)");
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
    // Each word of the values sits on one line: none is cut in pieces by a narrow column.
    const broken = await details.locator("dd").evaluateAll((dds) =>
      dds.flatMap((dd) => {
        const out: string[] = [];
        const walker = document.createTreeWalker(dd, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent ?? "";
          for (const match of text.matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(node, match.index!);
            range.setEnd(node, match.index! + match[0].length);
            const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            if (tops.size > 1) out.push(match[0]);
          }
        }
        return out;
      }),
    );
    expect(broken).toEqual([]);
    if (width < 640) {
      // The label above its value.
      const label = (await details.getByText("When", { exact: true }).boundingBox())!;
      const value = (await details.getByText("Pacific Time (US & Canada)").boundingBox())!;
      expect(value.y).toBeGreaterThan(label.y + label.height - 1);
    }
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/manage-long-label-${width}.png`, fullPage: true });
  }
});

test("the cancel page shows the whole range on the clock the guest chose on the booking page, the zone by its name", async ({ page, request }) => {
  const { username, date } = await setUpHost(request);
  const booking = await book(request, username, date!);
  const cancelPath = new URL(booking.cancelUrl).pathname;
  const start = DateTime.fromISO(booking.startTime).setZone("America/Los_Angeles");
  const end = DateTime.fromISO(booking.endTime).setZone("America/Los_Angeles");
  const day = start.toFormat("cccc, LLLL d, yyyy");

  // No choice made: the clock of the guest's zone's country (as their emails), the whole range.
  await page.goto(cancelPath);
  const when = page.locator("dd").filter({ hasText: "Pacific Time (US & Canada)" });
  expect(plain(await when.innerText())).toContain(`${day}, ${start.toFormat("h:mm a")}–${end.toFormat("h:mm a")}`);

  // The guest chooses 24 hours on the booking page: the cancel page follows, from its first paint.
  await page.goto(`/${username}/consult`);
  await page.getByRole("radio", { name: "24h" }).check();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto(cancelPath);
    expect(plain(await when.innerText())).toContain(`${day}, ${start.toFormat("HH:mm")}–${end.toFormat("HH:mm")}`);
    await expect(when).not.toContainText("America/Los_Angeles");
    expect(await when.innerText()).not.toMatch(/\b[AP]M\b/);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/cancel-page-${width}.png`, fullPage: true });
  }
});
