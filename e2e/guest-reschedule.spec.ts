import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { expectAccessible, expectNoSidewaysScroll } from "./support/page-checks";

// A guest moves their own booking from the reschedule link (decisions §13, §14), in Chromium: the
// page shows the booking in the zone it was booked in and the open times on the booking page's
// calendar; nothing moves until the guest picks a time and confirms; the host's list then shows the
// new time with the old one as previousStartTime. Cancelled bookings say so without a picker, and an
// unknown token is the 404 page.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "Asia/Tokyo", locale: "en-US", viewport: { width: 390, height: 844 } });

/** The booking's time as the page writes it (ICU may put a narrow no-break space before AM/PM). */
const when = (page: Page) => page.locator("dd").filter({ hasText: "(Japan Standard Time)" });
const plain = async (page: Page) => (await when(page).innerText()).replace(/[\u202f\u2009]/g, " ");

test("a guest picks another time from the reschedule link and confirms it", async ({ page, request }) => {
  const username = `rs-${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  const password = "reschedule password";
  await request.post("/api/v1/auth/register", { data: { email, password, fullName: "Rene Host", username, timezone: "UTC" } });
  const token = (await (await request.post("/api/v1/auth/login", { data: { email, password } })).json()).accessToken as string;
  const auth = { authorization: `Bearer ${token}` };
  const day = DateTime.utc().plus({ days: 2 }).toISODate()!;
  await request.put("/api/v1/me/availability", {
    headers: auth,
    data: { minNoticeHours: 0, maxAdvanceDays: 30, weeklyRules: [], dateOverrides: [{ date: day, available: true, intervals: [{ startTime: "01:00", endTime: "04:00" }] }] },
  });
  await request.post("/api/v1/me/event-types", { headers: auth, data: { slug: "talk", title: "Talk", durationMinutes: 60, location: "Rene's office" } });
  const booked = await request.post(`/api/v1/public/${username}/talk/bookings`, {
    headers: { "idempotency-key": randomUUID() },
    data: { startTime: `${day}T01:00:00Z`, guestName: "Yuki Guest", guestEmail: `${randomUUID().slice(0, 8)}@example.com`, guestTimezone: "Asia/Tokyo" },
  });
  expect(booked.status()).toBe(201);
  const { rescheduleUrl, id } = await booked.json();
  const dayName = DateTime.fromISO(day).toFormat("cccc, LLLL d");

  const response = await page.goto(new URL(rescheduleUrl).pathname);
  expect(response?.status()).toBe(200);
  // The token is in the URL: the page sends no Referer onward (its meta tag overrides the site's header).
  await expect(page.locator('meta[name="referrer"]')).toHaveAttribute("content", "no-referrer");
  await expect(page.getByRole("heading", { name: "Pick another time" })).toBeVisible();
  await expect(page.getByText("Talk with Rene Host")).toBeVisible();
  await expect(page.getByText("Rene's office")).toBeVisible();
  // 01:00 UTC is 10:00 in Tokyo, the zone the guest booked in (a US browser: 12-hour clock, once
  // the page has read the browser's clock: the server's render says 24-hour until then).
  await expect.poll(() => plain(page)).toBe(`${DateTime.fromISO(day).toFormat("cccc, LLLL d, yyyy")}, 10:00 AM–11:00 AM (Japan Standard Time)`);
  await expect(page.getByRole("combobox", { name: "Timezone" })).toHaveValue("Japan Standard Time – Tokyo");
  // The calendar opens on the booking's day; its own time shows as taken.
  await expect(page.getByRole("gridcell", { selected: true })).toHaveAccessibleName(`${dayName}, 2 open times`);
  const times = page.getByRole("group", { name: dayName }).getByRole("button");
  expect((await times.allInnerTexts()).map((t) => t.replace(/[\u202f\u2009]/g, " "))).toEqual(["11:00 AM", "12:00 PM"]);
  await expect(page.getByRole("button", { name: "Choose a new time above" })).toBeDisabled();
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);

  // Picking a time alone changes nothing; the confirm button takes the focus and names the time.
  const noon = times.filter({ hasText: "12:00" });
  await noon.click();
  await expect(noon).toHaveAttribute("aria-pressed", "true");
  let list = (await (await request.get("/api/v1/me/bookings", { headers: auth })).json()).data;
  expect(list[0].startTime).toBe(`${day}T01:00:00Z`);
  const confirm = page.getByRole("button", { name: /^Move to / });
  await expect(confirm).toBeFocused();
  expect((await confirm.innerText()).replace(/[\u202f\u2009]/g, " ")).toBe(`Move to ${DateTime.fromISO(day).toFormat("cccc, LLLL d, yyyy")}, 12:00 PM–1:00 PM`);

  // The 24-hour clock: the booking, the times and the button all change at once.
  await page.getByRole("radio", { name: "24h" }).check();
  await expect(when(page)).toHaveText(/, 10:00–11:00 \(Japan Standard Time\)$/);
  expect(await times.allInnerTexts()).toEqual(["11:00", "12:00"]);
  await expect(confirm).toHaveText(/, 12:00–13:00$/);
  await page.screenshot({ path: test.info().outputPath("reschedule-390.png"), fullPage: true });

  await confirm.click();
  await expect(page.getByRole("heading", { name: "Your booking is moved" })).toBeVisible();
  await expect(when(page)).toHaveText(/, 12:00–13:00 \(Japan Standard Time\)$/);
  await expect(page.getByRole("status")).toContainText("The host has been told");
  await expect(page.getByRole("link", { name: /Add the new time to your calendar/ })).toHaveAttribute("href", /^\/api\/v1\/public\/bookings\/[A-Za-z0-9_-]+\.ics$/);
  await expect(page.getByRole("grid")).toHaveCount(0);

  list = (await (await request.get("/api/v1/me/bookings", { headers: auth })).json()).data;
  expect(list).toEqual([expect.objectContaining({ id, startTime: `${day}T03:00:00Z`, previousStartTime: `${day}T01:00:00Z` })]);

  // A cancelled booking's link says so and offers no times.
  await request.post(`/api/v1/me/bookings/${id}/cancel`, { headers: auth, data: {} });
  await page.reload();
  await expect(page.getByText("This booking is cancelled, so it cannot be moved.")).toBeVisible();
  await expect(page.getByRole("grid")).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Move to / })).toHaveCount(0);
  await expectAccessible(page);

  const unknown = await page.goto("/reschedule/not-a-real-token");
  expect(unknown?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

test("a time taken meanwhile is refused in words, and the times are fetched again", async ({ page, request }) => {
  const username = `rt-${randomUUID().slice(0, 8)}`;
  await request.post("/api/v1/auth/register", { data: { email: `${username}@example.com`, password: "reschedule password", fullName: "Rita Host", username, timezone: "UTC" } });
  const token = (await (await request.post("/api/v1/auth/login", { data: { email: `${username}@example.com`, password: "reschedule password" } })).json()).accessToken;
  const auth = { authorization: `Bearer ${token}` };
  const day = DateTime.utc().plus({ days: 2 }).toISODate()!;
  await request.put("/api/v1/me/availability", {
    headers: auth,
    data: { minNoticeHours: 0, maxAdvanceDays: 30, weeklyRules: [], dateOverrides: [{ date: day, available: true, intervals: [{ startTime: "01:00", endTime: "04:00" }] }] },
  });
  await request.post("/api/v1/me/event-types", { headers: auth, data: { slug: "talk", title: "Talk", durationMinutes: 60 } });
  const book = (startTime: string) =>
    request.post(`/api/v1/public/${username}/talk/bookings`, {
      headers: { "idempotency-key": randomUUID() },
      data: { startTime, guestName: "Guest", guestEmail: `${randomUUID().slice(0, 8)}@example.com`, guestTimezone: "Asia/Tokyo" },
    });
  const { rescheduleUrl } = await (await book(`${day}T01:00:00Z`)).json();
  await page.goto(new URL(rescheduleUrl).pathname);
  const times = page.getByRole("group", { name: DateTime.fromISO(day).toFormat("cccc, LLLL d") }).getByRole("button");
  await times.filter({ hasText: "12:00" }).click();
  // Someone else books 12:00 while this guest hesitates.
  expect((await book(`${day}T03:00:00Z`)).status()).toBe(201);
  await page.getByRole("button", { name: /^Move to / }).click();
  await expect(page.getByRole("alert").filter({ hasText: "taken" })).toHaveText("That time was just taken by someone else. The times are fresh again: please pick another.");
  await expect(times).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Choose a new time above" })).toBeDisabled();
});
