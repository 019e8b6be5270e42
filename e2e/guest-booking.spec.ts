import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { expectAccessible, expectNoSidewaysScroll } from "./support/page-checks";

// Issue 8, the guest's side, as a guest on a phone in Los Angeles with a US English browser sees
// it: the month calendar opens on the first day with open times, the keyboard moves through the
// days, the clock switches between 12 and 24 hours everywhere at once (the confirmation too), the
// confirmation names the zone and offers the invitation, the reschedule and the cancel links, and
// all of them work. Pictures of the page at 1280 and 390 px and of the confirmation are saved.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "America/Los_Angeles", locale: "en-US", viewport: { width: 390, height: 844 } });
test.describe.configure({ mode: "serial" });

const SHOTS = "e2e/screenshots";
const HOST_ZONE = "America/New_York";
const GUEST_ZONE = "America/Los_Angeles";
// The zones as a guest reads them: by their names (lib/time/zones.ts), not their ids.
const GUEST_ZONE_NAME = "Pacific Time (US & Canada)";
const HOST_ZONE_NAME = "Eastern Time (US & Canada)";
const api = (path: string) => `/api/v1${path}`;
/** A time on either clock. */
const TWELVE = /^\d{1,2}:\d{2} [AP]M$/;
const TWENTY_FOUR = /^\d{2}:\d{2}$/;

/**
 * A New York host open on two days in a row: 10:00–12:00 on the first (four half hours), 13:00–14:00
 * on the second (two). The first is at least three days out, both in one month and one week row.
 */
async function setUpHost(request: APIRequestContext, open: { days: DateTime[]; windowDays?: number } | null = null) {
  const username = `gb-${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  const password = "guest booking password";
  expect((await request.post(api("/auth/register"), { data: { email, password, fullName: "Gina Host", username, timezone: HOST_ZONE } })).status()).toBe(201);
  const token = (await (await request.post(api("/auth/login"), { data: { email, password } })).json()).accessToken as string;
  const headers = { authorization: `Bearer ${token}` };
  let first = DateTime.now().setZone(HOST_ZONE).startOf("day").plus({ days: 3 });
  // Both days, the day after them and the week above inside one month, and the three in one week
  // row (Sunday first in the US), so that the arrow keys below never turn the month.
  while (first.day > 25 || first.day < 8 || first.weekday >= 5) first = first.plus({ days: 1 });
  const days = open?.days ?? [first, first.plus({ days: 1 })];
  const intervals = [
    [{ startTime: "10:00", endTime: "12:00" }],
    [{ startTime: "13:00", endTime: "14:00" }],
  ];
  const availability = await request.put(api("/me/availability"), {
    headers,
    data: {
      minNoticeHours: 0,
      maxAdvanceDays: open?.windowDays ?? 60,
      weeklyRules: [],
      dateOverrides: days.map((d, i) => ({ date: d.toISODate(), available: true, intervals: intervals[i % 2] })),
    },
  });
  expect(availability.status()).toBe(200);
  const created = await request.post(api("/me/event-types"), {
    headers,
    data: {
      slug: "intro",
      title: "Intro call",
      durationMinutes: 30,
      location: "Zoom (the link comes by email)",
      description: "Twenty minutes to see whether we can help, ten for your questions.",
      customQuestions: [
        { id: "topic", label: "What should we talk about?", required: true },
        { id: "company", label: "Company", required: false },
        { id: "phone", label: "Phone", required: false, type: "phone" },
      ],
    },
  });
  expect(created.status()).toBe(201);
  return { username, headers, days };
}

// The host's days, by their date: the times on them fall on the same dates in Los Angeles.
const dayName = (d: DateTime) => d.toFormat("cccc, LLLL d");
const selectedDay = (page: Page) => page.getByRole("gridcell", { selected: true });
const dayButton = (page: Page, d: DateTime) => page.getByRole("grid").getByRole("button", { name: new RegExp(`^${dayName(d)},`) });
const timesOf = (page: Page, d: DateTime) => page.getByRole("group", { name: dayName(d) }).getByRole("button");
/** The times listed for a day as read (ICU may put a narrow no-break space before AM/PM). */
const timeTexts = async (page: Page, d: DateTime) => (await timesOf(page, d).allInnerTexts()).map((t) => t.replace(/[\u202f\u2009]/g, " "));

async function expectNoIsoStrings(page: Page) {
  expect(await page.locator("body").innerText()).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}|\d{4}-\d{2}-\d{2}/);
}

/** Shared with the .ics test below: the link the confirmation offered. */
let icsHref: string | undefined;
let bookedStart: string | undefined;

test("a guest in Los Angeles books on the month calendar at 390 px, by keyboard, on a 24-hour clock", async ({ page, request }) => {
  const { username, headers, days } = await setUpHost(request);
  const [d1, d2] = days as [DateTime, DateTime];
  // Layout shifts from the first paint on: the page reserves the room its times will take.
  await page.addInitScript(() => {
    (window as unknown as { shifts: number }).shifts = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!e.hadRecentInput) (window as unknown as { shifts: number }).shifts += e.value;
      }
    }).observe({ type: "layout-shift", buffered: true });
  });

  await page.goto(`/${username}/intro`);
  await expect(page.getByRole("heading", { level: 1, name: "Intro call" })).toBeVisible();
  await expect(page.getByText("Gina Host")).toBeVisible();
  await expect(page.getByText("30 minutes")).toBeVisible();
  await expect(page.getByText("Zoom (the link comes by email)")).toBeVisible();
  await expect(page.getByText("Twenty minutes to see whether")).toBeVisible();

  // The zone is the browser's (by its name, under the calendar), the clock the US one; the first
  // open day is chosen, its times listed.
  await expect(page.getByRole("button", { name: `Timezone: ${GUEST_ZONE_NAME} Change` })).toBeVisible();
  await expect(page.getByRole("radio", { name: "12h" })).toBeChecked();
  await expect(timesOf(page, d1).first()).toBeVisible();
  const firstTimeMs = await page.evaluate(() => performance.now());
  test.info().annotations.push({ type: "first time listed", description: `${Math.round(firstTimeMs)} ms after navigation` });
  await expect(selectedDay(page)).toHaveAccessibleName(`${dayName(d1)}, 4 open times`);
  // 10:00 in New York is 7:00 in Los Angeles.
  expect(await timeTexts(page, d1)).toEqual(["7:00 AM", "7:30 AM", "8:00 AM", "8:30 AM"]);
  await expect(page.getByRole("heading", { name: d1.toFormat("LLLL yyyy") })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { shifts: number }).shifts)).toBeLessThan(0.02);
  await expectNoSidewaysScroll(page);
  await expectNoIsoStrings(page);
  await expectAccessible(page);

  // Keyboard: one day in the tab order; arrows move between days, Enter chooses an open day,
  // Space on a day without times changes nothing.
  await selectedDay(page).getByRole("button").focus();
  await page.keyboard.press("ArrowRight");
  await expect(dayButton(page, d2)).toBeFocused();
  await expect(dayButton(page, d2)).toHaveAttribute("tabindex", "0");
  await expect(dayButton(page, d1)).toHaveAttribute("tabindex", "-1");
  await page.keyboard.press("Enter");
  await expect(selectedDay(page)).toHaveAccessibleName(`${dayName(d2)}, 2 open times`);
  expect(await timeTexts(page, d2)).toEqual(["10:00 AM", "10:30 AM"]);
  await page.keyboard.press("ArrowRight");
  const d3 = d2.plus({ days: 1 });
  await expect(dayButton(page, d3)).toBeFocused();
  await expect(dayButton(page, d3)).toHaveAccessibleName(`${dayName(d3)}, no open times`);
  await page.keyboard.press(" ");
  await expect(selectedDay(page)).toHaveAccessibleName(`${dayName(d2)}, 2 open times`);
  await page.keyboard.press("ArrowUp");
  await expect(dayButton(page, d3.minus({ days: 7 }))).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowLeft");
  await expect(dayButton(page, d2)).toBeFocused();
  // The focus ring shows on the day (the picture is saved with it).
  await page.screenshot({ path: `${SHOTS}/booking-page-390.png`, fullPage: true });
  // Tab leaves the grid for the zone line under it, its clock, then the chosen day's first time.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: `Timezone: ${GUEST_ZONE_NAME} Change` })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("radio", { name: "12h" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(timesOf(page, d2).first()).toBeFocused();

  // The same page on a desktop: the times beside the calendar.
  await page.setViewportSize({ width: 1280, height: 800 });
  const calendar = await page.getByRole("grid").boundingBox();
  const times = await page.getByRole("group", { name: dayName(d2) }).boundingBox();
  expect(times!.x).toBeGreaterThan(calendar!.x + calendar!.width - 1);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${SHOTS}/booking-page.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const calendarPhone = await page.getByRole("grid").boundingBox();
  const timesPhone = await page.getByRole("group", { name: dayName(d2) }).boundingBox();
  expect(timesPhone!.y).toBeGreaterThan(calendarPhone!.y + calendarPhone!.height - 1);

  // 24 hours: every time on the page changes at once.
  await page.getByRole("radio", { name: "24h" }).check();
  for (const text of await timeTexts(page, d2)) expect(text).toMatch(TWENTY_FOUR);
  expect(await timeTexts(page, d2)).toEqual(["10:00", "10:30"]);
  await page.getByRole("radio", { name: "12h" }).check();
  for (const text of await timeTexts(page, d2)) expect(text).toMatch(TWELVE);
  await page.getByRole("radio", { name: "24h" }).check();

  // The form: every question, the required ones marked and required, a phone question as a tel field.
  await timesOf(page, d2).filter({ hasText: "10:00" }).click();
  const chosen = page.locator("form p").first();
  await expect(chosen).toHaveText(`${d2.toFormat("cccc, LLLL d, yyyy")} · 10:00–10:30 (${GUEST_ZONE_NAME})`);
  await expect(page.getByLabel("Your name")).toBeFocused();
  const topic = page.getByLabel("What should we talk about?");
  await expect(topic).toHaveAttribute("required", "");
  await expect(page.locator("label", { hasText: "What should we talk about?" })).toContainText("*");
  await expect(page.getByLabel("Company (optional)")).not.toHaveAttribute("required", "");
  await expect(page.getByLabel("Phone (optional)")).toHaveAttribute("type", "tel");
  await page.getByLabel("Your name").fill("Lana Guest");
  await page.getByLabel("Email").fill(`lana-${randomUUID().slice(0, 8)}@example.com`);
  await topic.fill("A second opinion");
  await expectNoSidewaysScroll(page);
  await page.getByRole("button", { name: "Confirm booking" }).click();

  // The confirmation: what, with whom, when (the zone named, the 24-hour clock), where, the links.
  const done = page.getByRole("status");
  await expect(page.getByRole("heading", { name: "You are booked" })).toBeFocused();
  await expect(done).toContainText("Intro call");
  await expect(done).toContainText("Gina Host");
  await expect(done).toContainText(`${d2.toFormat("cccc, LLLL d, yyyy")}, 10:00–10:30`);
  await expect(done).toContainText(GUEST_ZONE_NAME);
  await expect(done).not.toContainText(GUEST_ZONE);
  await expect(done).toContainText("Zoom (the link comes by email)");
  expect(await done.innerText()).not.toMatch(/\b[AP]M\b/);
  await expectNoSidewaysScroll(page);
  await expectNoIsoStrings(page);
  await page.screenshot({ path: `${SHOTS}/booking-confirmation.png`, fullPage: true });

  const ics = done.getByRole("link", { name: "Add to calendar (.ics)" });
  const reschedule = done.getByRole("link", { name: "Pick another time" });
  const cancel = done.getByRole("link", { name: "cancel this booking" });
  const cancelHref = (await cancel.getAttribute("href"))!;
  const token = new URL(cancelHref).pathname.split("/").pop()!;
  expect(cancelHref).toMatch(/\/cancel\/[A-Za-z0-9_-]{43,}$/);
  await expect(reschedule).toHaveAttribute("href", new RegExp(`/reschedule/${token}$`));
  await expect(ics).toHaveAttribute("href", `/api/v1/public/bookings/${token}.ics`);
  icsHref = (await ics.getAttribute("href"))!;

  const [booked] = (await (await request.get(api("/me/bookings"), { headers })).json()).data;
  expect(booked).toMatchObject({ guestName: "Lana Guest", guestTimezone: GUEST_ZONE, startTime: d2.set({ hour: 13 }).toUTC().toISO({ suppressMilliseconds: true }) });
  bookedStart = booked.startTime;

  // The reschedule link shows the booking, in the guest's zone; the cancel link cancels it.
  await reschedule.click();
  await expect(page.getByRole("heading", { name: "Pick another time" })).toBeVisible();
  await expect(page.getByText(GUEST_ZONE_NAME).first()).toBeVisible();
  await page.goBack();
  await page.goto(new URL(cancelHref).pathname);
  await expect(page.getByRole("heading", { name: "Cancel your booking" })).toBeVisible();
  await page.getByRole("button", { name: "Cancel booking…" }).click();
  await page.getByRole("button", { name: "Yes, cancel" }).click();
  await expect(page.getByRole("status")).toContainText("is cancelled");
  const [after] = (await (await request.get(api("/me/bookings"), { headers })).json()).data;
  expect(after).toMatchObject({ id: booked.id, status: "cancelled", cancelledBy: "guest" });
});

test("the first paint shows the month and the host, and no time until the guest's zone is known; the guest's own times come with no React error", async ({ browser, page, request }) => {
  const { username, days } = await setUpHost(request);
  const [d1] = days as [DateTime];
  // The server's HTML alone (no JavaScript): the month, the host, and where the times will be in
  // words; not one time, since the server knows no zone but the host's.
  const noScript = await browser.newContext({ javaScriptEnabled: false, timezoneId: GUEST_ZONE, locale: "en-US", viewport: { width: 390, height: 844 } });
  const first = await noScript.newPage();
  await first.goto(`/${username}/intro`);
  await expect(first.getByRole("heading", { name: d1.toFormat("LLLL yyyy") })).toBeVisible();
  await expect(first.getByText("Gina Host")).toBeVisible();
  await expect(first.getByText("Loading available times…")).toBeVisible();
  await expect(first.getByText("Finding your timezone…")).toBeVisible();
  expect(await first.locator("body").innerText()).not.toMatch(/\d{1,2}:\d{2}/);
  await first.screenshot({ path: `${SHOTS}/booking-page-first-paint-390.png`, fullPage: true });
  await noScript.close();

  // With JavaScript: the guest's zone and its times, without a hydration error or any other.
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`/${username}/intro`);
  await expect(timesOf(page, d1).first()).toBeVisible();
  expect(await timeTexts(page, d1)).toEqual(["7:00 AM", "7:30 AM", "8:00 AM", "8:30 AM"]);
  // The zone line opens the picker, which names the host's zone too.
  await page.getByRole("button", { name: `Timezone: ${GUEST_ZONE_NAME} Change` }).click();
  await expect(page.getByRole("combobox", { name: "Timezone" })).toHaveValue("Pacific Time (US & Canada)");
  await expect(page.getByText(`The host's timezone: ${HOST_ZONE_NAME}`)).toBeVisible();
  expect(errors).toEqual([]);
});

test("the confirmation's Add to calendar link downloads the booking's .ics", async ({ page, request }) => {
  expect(icsHref, "the booking test above must have run").toBeTruthy();
  const probe = await request.get(icsHref!);
  // A 404 here is the route gone missing: a failure, never a reason to skip.
  expect(probe.status(), `GET ${icsHref!.replace(/[^/]+\.ics$/, "{token}.ics")}`).toBe(200);
  expect(probe.headers()["content-type"]).toMatch(/^text\/calendar/);
  // Clicked in a page of the service, as the confirmation's link is: a download, not a page.
  await page.goto("/");
  await page.evaluate((href) => {
    const a = Object.assign(document.createElement("a"), { href, download: "booking.ics", textContent: "Add to calendar (.ics)" });
    document.body.prepend(a);
  }, icsHref!);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Add to calendar (.ics)" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.ics$/);
  const text = readFileSync((await file.path())!, "utf8");
  expect(text).toContain("BEGIN:VCALENDAR");
  expect(text).toContain(`DTSTART:${DateTime.fromISO(bookedStart!).toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'")}`);
});

test("the first open day two months ahead is chosen on load; the months before it are there, empty; the host's avatar shows", async ({ page, request, baseURL }) => {
  const far = DateTime.now().setZone(HOST_ZONE).startOf("day").plus({ days: 45 });
  const { username, headers } = await setUpHost(request, { days: [far], windowDays: 60 });
  expect((await request.patch(api("/me"), { headers, data: { avatarUrl: `${baseURL}/favicon.svg` } })).status()).toBe(200);
  await page.goto(`/${username}/intro`);
  const avatar = page.locator("header img");
  await expect(avatar).toHaveAttribute("src", `${baseURL}/favicon.svg`);
  expect(await avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(selectedDay(page)).toHaveAccessibleName(`${dayName(far)}, 4 open times`);
  await expect(page.getByRole("heading", { name: far.toFormat("LLLL yyyy") })).toBeVisible();
  // Back to this month: nothing open, said in words; not before this month.
  const previous = page.getByRole("button", { name: "Previous month" });
  while (await previous.isEnabled()) await previous.click();
  await expect(page.getByRole("heading", { name: DateTime.now().setZone(GUEST_ZONE).toFormat("LLLL yyyy") })).toBeVisible();
  await expect(page.getByText(/^No open times in /)).toBeVisible();
  await expect(page.getByRole("gridcell", { selected: true })).toHaveCount(0);
  // The window ends 60 days out: the month after it cannot be shown.
  const next = page.getByRole("button", { name: "Next month" });
  while (await next.isEnabled()) await next.click();
  await expect(page.getByRole("heading", { name: DateTime.now().setZone(GUEST_ZONE).plus({ days: 61 }).toFormat("LLLL yyyy") })).toBeVisible();
});

test("while times load the page says so in words, and a failure offers Try again", async ({ page, request }) => {
  const { username, days } = await setUpHost(request);
  let fail = true;
  await page.route((url) => url.pathname.endsWith("/intro/slots"), async (route) => {
    if (fail) return route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: "service_unavailable", message: "Down for a moment" }) });
    await new Promise((r) => setTimeout(r, 300));
    await route.continue();
  });
  await page.goto(`/${username}/intro`);
  const alert = page.getByRole("alert").filter({ hasText: "Try again" });
  await expect(alert).toBeVisible();
  await expectNoIsoStrings(page);
  fail = false;
  await alert.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByText("Loading available times…")).toBeVisible();
  await expect(selectedDay(page)).toHaveAccessibleName(`${dayName(days[0]!)}, 4 open times`);
});
