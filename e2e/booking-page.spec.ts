import { expect, test } from "@playwright/test";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { setUpHost } from "./support/host";

// The guest's booking page in a real browser whose timezone is Paris (a British English browser:
// 24-hour clock): the host's 10:00 in New York shows as Paris time on the day the calendar
// chose (the first with open times), and booking it goes through the public API.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "Europe/Paris", locale: "en-GB" });

test("a guest opens the host's page, picks a time shown in their zone, answers, and is booked", async ({ page, request }) => {
  const { username, headers, date } = await setUpHost(request);
  const hostStart = DateTime.fromISO(`${date}T10:00`, { zone: "America/New_York" });
  const parisStart = hostStart.setZone("Europe/Paris");

  await page.goto(`/${username}`);
  await page.getByRole("link", { name: /Consultation/ }).click();
  await expect(page.getByRole("heading", { name: "Consultation" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Timezone: Central European Time Change" })).toBeVisible();
  // The only open day is chosen on load, wherever in the booking window it lies.
  await expect(page.getByRole("gridcell", { selected: true })).toHaveAccessibleName(new RegExp(`^${parisStart.toFormat("cccc, LLLL d")}, 4 open times$`));

  const day = page.getByRole("group", { name: parisStart.toFormat("cccc, LLLL d") });
  await day.getByRole("button", { name: parisStart.toFormat("HH:mm") }).click();

  await page.getByLabel("Your name").fill("Paula Guest");
  await page.getByLabel("Email").fill(`paula-${Date.now()}@example.com`);
  // The required question left empty: the browser holds the form and points at the question.
  await page.getByRole("button", { name: "Confirm booking" }).click();
  await expect(page.getByLabel("Topic")).toBeFocused();
  await page.getByLabel("Topic").fill("A second opinion");
  await page.getByRole("button", { name: "Confirm booking" }).click();

  const done = page.getByRole("status");
  await expect(done).toContainText("You are booked");
  await expect(done).toContainText("Central European Time");
  await expect(done.getByRole("link", { name: "Cancel this booking" })).toHaveAttribute("href", /\/cancel\/[A-Za-z0-9_-]{43,}$/);

  const list = await (await request.get("/api/v1/me/bookings", { headers })).json();
  expect(list.data).toEqual([
    expect.objectContaining({
      guestName: "Paula Guest",
      guestTimezone: "Europe/Paris",
      startTime: hostStart.toUTC().toISO({ suppressMilliseconds: true }),
      customAnswers: { topic: "A second opinion" },
    }),
  ]);

  // The time is gone for the next guest.
  await page.goto(`/${username}/consult`);
  await expect(page.getByRole("group", { name: parisStart.toFormat("cccc, LLLL d") }).getByRole("button", { name: parisStart.toFormat("HH:mm") })).toHaveCount(0);
});

test("an unknown host or event type is a 404 page", async ({ page }) => {
  expect((await page.goto("/nobody-at-all-here"))?.status()).toBe(404);
  expect((await page.goto("/nobody-at-all-here/consult"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});
