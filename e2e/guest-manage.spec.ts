import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { setUpHost } from "./support/host";
import { expectAccessible, expectNoSidewaysScroll } from "./support/page-checks";

// What a guest has after booking: the whole confirmation at once (never a bare "You are booked."),
// their booking's own page (/booking/{token}) with calendar links whose times are the booking's,
// cancelling with a reason behind a confirm step, and rescheduling that opens on the booking's month.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "Asia/Tokyo", locale: "en-US", viewport: { width: 390, height: 844 } });

const SHOTS = "e2e/screenshots";
const api = (path: string) => `/api/v1${path}`;
const plain = (text: string) => text.replace(/[\u202f\u2009]/g, " ");
/** 2027-03-15T13:00:00Z → 20270315T130000Z, Google's form. */
const compact = (iso: string) => iso.replace(/[-:]/g, "");

async function bookByApi(request: APIRequestContext, username: string, startTime: string) {
  const res = await request.post(api(`/public/${username}/consult/bookings`), {
    headers: { "idempotency-key": randomUUID() },
    data: { startTime, guestName: "Tomo Guest", guestEmail: `tomo-${randomUUID().slice(0, 8)}@example.com`, guestTimezone: "Asia/Tokyo", customAnswers: { topic: "Quarterly plans" } },
  });
  expect(res.status()).toBe(201);
  return res.json();
}

async function firstSlot(request: APIRequestContext, username: string, date: string) {
  const res = await request.get(api(`/public/${username}/consult/slots?from=${date}&to=${date}&timezone=America/New_York`));
  return (await res.json()).slots[0] as { startTime: string; endTime: string };
}

/** The Google and Outlook links' events, decoded. */
async function calendarLinks(page: Page) {
  const google = new URL((await page.getByRole("link", { name: "Add to Google Calendar" }).getAttribute("href"))!);
  const outlook = new URL((await page.getByRole("link", { name: "Add to Outlook" }).getAttribute("href"))!);
  return { google, outlook };
}

async function expectCalendarLinks(page: Page, booking: { startTime: string; endTime: string; manageUrl: string }) {
  const { google, outlook } = await calendarLinks(page);
  expect(google.origin + google.pathname).toBe("https://calendar.google.com/calendar/render");
  expect(google.searchParams.get("action")).toBe("TEMPLATE");
  expect(google.searchParams.get("text")).toBe("Consultation with Flow Host");
  expect(google.searchParams.get("dates")).toBe(`${compact(booking.startTime)}/${compact(booking.endTime)}`);
  expect(google.searchParams.get("details")).toContain(booking.manageUrl);
  expect(outlook.origin + outlook.pathname).toBe("https://outlook.live.com/calendar/0/action/compose");
  expect(outlook.searchParams.get("subject")).toBe("Consultation with Flow Host");
  expect(outlook.searchParams.get("startdt")).toBe(booking.startTime);
  expect(outlook.searchParams.get("enddt")).toBe(booking.endTime);
  expect(outlook.searchParams.get("body")).toContain(booking.manageUrl);
}

test("the confirmation appears whole in one frame, with calendar buttons and the booking's own page", async ({ page, request }) => {
  const { username, headers } = await setUpHost(request);
  await page.goto(`/${username}/consult`);
  const time = page.locator('[data-zone="Asia/Tokyo"]:not([data-preview]) button[data-start]').first();
  await time.click();
  await page.getByLabel("Your name").fill("Tomo Guest");
  await page.getByLabel("Email").fill(`tomo-${randomUUID().slice(0, 8)}@example.com`);
  await page.getByLabel(/Topic/).fill("Quarterly plans");
  // Every state the live region takes, recorded as the DOM changes (before any paint).
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    const region = document.querySelector('[role="status"]')!;
    new MutationObserver(() => seen.push((region as HTMLElement).innerText.trim())).observe(region, { childList: true, subtree: true, characterData: true });
  });
  await page.getByRole("button", { name: "Confirm booking" }).click();
  await expect(page.getByRole("heading", { name: "You are booked" })).toBeFocused();
  const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen.filter(Boolean));
  expect(seen.length).toBeGreaterThan(0);
  for (const text of seen) {
    expect(text).toContain("Consultation");
    expect(text).toContain("Add to Google Calendar");
  }

  const [booked] = (await (await request.get(api("/me/bookings"), { headers })).json()).data;
  const done = page.getByRole("status");
  const manage = done.getByRole("link", { name: "Your booking's page" });
  const manageUrl = (await manage.getAttribute("href"))!;
  expect(manageUrl).toMatch(/\/booking\/[A-Za-z0-9_-]{43,}$/);
  await expectCalendarLinks(page, { ...booked, manageUrl });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${SHOTS}/confirmation-calendars-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${SHOTS}/confirmation-calendars.png`, fullPage: true });

  await manage.click();
  await expect(page.getByRole("heading", { name: "Your booking" })).toBeVisible();
});

test("the booking's page shows it in the guest's zone, with its answers, calendar links, reschedule and cancel; an unknown token is the 404 page", async ({ page, request }) => {
  const { username, date } = await setUpHost(request);
  const slot = await firstSlot(request, username, date);
  const booking = await bookByApi(request, username, slot.startTime);
  expect(booking.manageUrl).toBe(booking.cancelUrl.replace("/cancel/", "/booking/"));
  const path = new URL(booking.manageUrl).pathname;
  const token = path.split("/").pop()!;

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await expect(page.locator('meta[name="referrer"]')).toHaveAttribute("content", "no-referrer");
    await expect(page.getByRole("heading", { name: "Your booking" })).toBeVisible();
    // The language last, in the footer, as on every guest page.
    await expect(page.locator("footer").getByRole("combobox", { name: "Language" })).toBeVisible();
    const details = page.getByTestId("booking-details");
    await expect(details).toContainText("Consultation");
    await expect(details).toContainText("Flow Host");
    // 10:00 in New York is midnight in Tokyo, on Japan's 24-hour clock, the zone named.
    const day = DateTime.fromISO(slot.startTime).setZone("Asia/Tokyo");
    expect(plain(await details.innerText())).toContain(`${day.toFormat("cccc, LLLL d, yyyy")}, ${day.toFormat("HH:mm")}–${day.plus({ minutes: 30 }).toFormat("HH:mm")}`);
    await expect(details).toContainText("Japan Standard Time");
    await expect(details).not.toContainText("Asia/Tokyo");
    await expect(details).toContainText("Topic");
    await expect(details).toContainText("Quarterly plans");
    expect(await details.innerText()).not.toMatch(/\d{4}-\d\d-\d\dT/);
    await expect(page.getByRole("link", { name: "Reschedule" })).toHaveAttribute("href", `/reschedule/${token}`);
    await expect(page.getByRole("link", { name: "Cancel booking" })).toHaveAttribute("href", `/cancel/${token}`);
    await expect(page.getByRole("link", { name: "Add to calendar (.ics)" })).toHaveAttribute("href", `/api/v1/public/bookings/${token}.ics`);
    await expectCalendarLinks(page, { startTime: slot.startTime, endTime: slot.endTime, manageUrl: booking.manageUrl });
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/manage-booking${width === 390 ? "-390" : ""}.png`, fullPage: true });
  }
  const ics = await request.get(`/api/v1/public/bookings/${token}.ics`);
  expect((await ics.text()).replace(/\r\n[ \t]/g, "")).toContain(booking.manageUrl);

  const unknown = await page.goto("/booking/not-a-real-token-0000000000000000000000000");
  expect(unknown?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

test("cancelling takes a reason and a confirmation, tells the host why, and leads back to the host's page", async ({ page, request }) => {
  const { username, headers, date } = await setUpHost(request);
  const slot = await firstSlot(request, username, date);
  const booking = await bookByApi(request, username, slot.startTime);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(new URL(booking.cancelUrl).pathname);
    await page.getByLabel(/Reason for cancelling/).fill("My flight was moved.");
    await expect(page.locator("footer").getByRole("combobox", { name: "Language" })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/cancel-reason${width === 390 ? "-390" : ""}.png`, fullPage: true });
    await page.getByRole("button", { name: "Cancel booking…" }).click();
    await expect(page.getByRole("heading", { name: "Cancel this booking?" })).toBeFocused();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/cancel-confirm${width === 390 ? "-390" : ""}.png`, fullPage: true });
    if (width === 1280) {
      // "No, keep it" goes back with the reason kept, and nothing is cancelled.
      await page.getByRole("button", { name: "No, keep it" }).click();
      await expect(page.getByLabel(/Reason for cancelling/)).toHaveValue("My flight was moved.");
    }
  }
  let list = await (await request.get(api("/me/bookings"), { headers })).json();
  expect(list.data.find((b: { id: string }) => b.id === booking.id).status).toBe("confirmed");

  await page.getByRole("button", { name: "Yes, cancel" }).click();
  await expect(page.getByRole("status")).toContainText("is cancelled");
  const again = page.getByRole("link", { name: "Book another time with Flow Host" });
  await expect(again).toHaveAttribute("href", `/${username}`);
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/cancel-done-390.png`, fullPage: true });
  list = await (await request.get(api("/me/bookings"), { headers })).json();
  expect(list.data.find((b: { id: string }) => b.id === booking.id)).toMatchObject({ status: "cancelled", cancelledBy: "guest", cancellationReason: "My flight was moved." });

  // The booking's page now says so, offers no cancel, and leads to the host's page.
  await page.goto(new URL(booking.manageUrl).pathname);
  await expect(page.getByRole("heading", { name: "This booking is cancelled" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Cancel booking" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Reschedule" })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/manage-cancelled-390.png`, fullPage: true });
  await page.getByRole("link", { name: "Book another time with Flow Host" }).click();
  await expect(page).toHaveURL(new RegExp(`/${username}$`));
});

test("rescheduling opens on the booking's month, not today's, with the current time marked", async ({ page, request }) => {
  const { username, headers } = await setUpHost(request);
  // Six weeks out: always another month than today's.
  const date = DateTime.now().setZone("America/New_York").plus({ days: 45 }).toISODate()!;
  const availability = await request.put(api("/me/availability"), {
    headers,
    data: { minNoticeHours: 0, maxAdvanceDays: 90, weeklyRules: [], dateOverrides: [{ date, available: true, intervals: [{ startTime: "10:00", endTime: "12:00" }] }] },
  });
  expect(availability.status()).toBe(200);
  const slot = await firstSlot(request, username, date);
  const booking = await bookByApi(request, username, slot.startTime);
  const start = DateTime.fromISO(slot.startTime).setZone("Asia/Tokyo");
  const tokyoDay = start.toISODate()!;
  const left = await request.get(api(`/public/${username}/consult/slots?from=${tokyoDay}&to=${tokyoDay}&timezone=Asia/Tokyo`));
  const offered = (await left.json()).slots.length as number;
  expect(offered).toBeGreaterThan(0);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(new URL(booking.rescheduleUrl).pathname);
    await expect(page.getByRole("heading", { name: start.toFormat("LLLL yyyy") })).toBeVisible();
    const current = page.getByTestId("current-time");
    await expect(current).toBeVisible();
    expect(plain(await current.innerText())).toMatch(new RegExp(`^${start.toFormat("h:mm")} AM\\s+Your current time$`));
    // Marked among the day's other times, in order, and not offered.
    const group = page.getByRole("group", { name: start.toFormat("cccc, LLLL d") });
    await expect(group.getByRole("button")).toHaveCount(offered);
    await expect(group.getByRole("button", { name: new RegExp(start.toFormat("h:mm")) })).toHaveCount(0);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/reschedule-current${width === 390 ? "-390" : ""}.png`, fullPage: true });
  }
});
