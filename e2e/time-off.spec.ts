import { randomUUID } from "node:crypto";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { asHost, createEventType, expect, openDay, openEveryDay, registerHost, test } from "./support/fixtures";
import { expectAccessible } from "./support/page-checks";

// Time off and public holidays (decisions §21), the way a host and a guest meet them: the host
// sets a week away with a colleague on the Time off page and their country's public holidays on
// the availability page; a guest opening the host's booking page reads "Away until …", follows
// the link to the colleague's page for the same event and books there.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "Europe/Berlin", locale: "en-GB", hostFields: { fullName: "Hana Host", timezone: "Europe/Berlin" } });

test("a host sets a week away with a colleague; a guest reads it on the booking page and books the colleague", async ({ page, host, baseURL, newPage, shoot }) => {
  const colleague = await registerHost({ site: baseURL!, fullName: "Ana Costa", timezone: "Europe/Berlin" });
  const today = DateTime.now().setZone("Europe/Berlin");
  const lastDay = today.plus({ days: 6 });
  const bookingDay = today.plus({ days: 2 }).toISODate()!;
  await openEveryDay(host, ["09:00", "17:00"]);
  await createEventType(host, { slug: "intro", title: "Intro call", durationMinutes: 30 });
  await openDay(colleague, bookingDay, ["09:00", "10:00"]);
  await createEventType(colleague, { slug: "intro", title: "Intro call", durationMinutes: 30 });

  // The Time off page, beside Availability in the navigation: empty at first, in words.
  await page.getByRole("link", { name: "Time off" }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/time-off$/);
  await expect(page.getByText("No time off planned.")).toBeVisible();

  // Nothing filled in: the form says what is missing at the fields, and sends nothing.
  await page.getByRole("button", { name: "Add time off" }).click();
  await expect(page.getByText("Choose the first day you are away.")).toBeVisible();
  await expect(page.getByLabel("First day away")).toBeFocused();

  await page.getByLabel("First day away").fill(today.toISODate()!);
  await page.getByLabel("Last day away").fill(lastDay.toISODate()!);
  await page.getByLabel("Note for guests").fill("At a conference");
  // A username no one has: the API's words, at the field.
  await page.getByLabel("Send guests to a colleague").fill("no-one-by-this-name");
  await page.getByRole("button", { name: "Add time off" }).click();
  await expect(page.getByText("No one has the username “no-one-by-this-name”")).toBeVisible();
  await page.getByLabel("Send guests to a colleague").fill(colleague.username);
  await page.getByRole("button", { name: "Add time off" }).click();
  await expect(page.getByText(/^Added: /)).toBeVisible();

  const row = page.getByRole("listitem").filter({ hasText: "Guests are sent to Ana Costa" });
  await expect(row).toContainText(`${today.toFormat("ccc, LLL d")}`);
  await expect(row).toContainText(`${lastDay.toFormat("ccc, LLL d, yyyy")} · At a conference · Guests are sent to Ana Costa`);
  await expect(row).toContainText("Away now");
  await expectAccessible(page);
  await shoot(page, "time-off");

  // The home says so too, with the way to the page.
  await page.getByRole("link", { name: "Home" }).first().click();
  await expect(page.getByText(`You're away until ${lastDay.setLocale("en-US").toFormat("cccc, LLLL d")}; guests are sent to Ana Costa.`)).toBeVisible();
  await shoot(page, "home-time-off");

  // Public holidays on the availability page: a country, a region, a holiday worked anyway.
  await page.goto("/dashboard/availability");
  const holidays = page.getByRole("region", { name: "Public holidays" });
  await expect(holidays.getByText("No public holidays count as days off.")).toBeVisible();
  await holidays.getByLabel("Country").selectOption({ label: "Germany" });
  await expect(holidays.getByLabel("Region")).toBeVisible();
  await holidays.getByLabel("Region").selectOption("BY");
  const worked = holidays.getByRole("checkbox", { name: /^I work this day/ }).first();
  await expect(worked).toBeEnabled();
  // Saved at once; the box waits for the answer (a click, not check(): the tick is the page's, not the browser's).
  await worked.click();
  await expect(worked).toBeChecked();
  await expect(worked).toBeEnabled();
  const saved = await asHost(host, "GET", "/me/holidays", undefined, 200);
  expect(saved).toMatchObject({ country: "DE", region: "BY", workingOn: [saved.upcoming[0].date] });
  await holidays.scrollIntoViewIfNeeded();
  await shoot(page, "availability-holidays");

  // The guest: the host's booking page says the host is away, and links to the colleague's same event.
  const guest = await newPage();
  await guest.goto(`/${host.username}/intro`);
  const notice = guest.getByTestId("away-notice");
  await expect(notice).toContainText(`Away until ${lastDay.setLocale("en-US").toFormat("cccc, LLLL d")}`);
  await expect(notice).toContainText("At a conference");
  await shoot(guest, "booking-page-away");
  // The host's own page says the same.
  await guest.goto(`/${host.username}`);
  await expect(guest.getByTestId("away-notice")).toContainText("Book with Ana Costa instead");
  await shoot(guest, "host-page-away");
  await guest.goto(`/${host.username}/intro`);
  await guest.getByRole("link", { name: "Book with Ana Costa instead" }).click();
  await expect(guest).toHaveURL(new RegExp(`/${colleague.username}/intro$`));
  await expect(guest.getByTestId("away-notice")).toHaveCount(0);

  const day = DateTime.fromISO(bookingDay, { zone: "Europe/Berlin" });
  await guest.getByRole("group", { name: day.toFormat("cccc, LLLL d") }).getByRole("button", { name: "09:30" }).click();
  await guest.getByLabel("Your name").fill("Gina Guest");
  await guest.getByLabel("Email").fill(`gina-${randomUUID()}@example.com`);
  await guest.getByRole("button", { name: "Confirm booking" }).click();
  await expect(guest.getByRole("status").filter({ hasText: "You are booked" })).toBeVisible();
  const booked = await asHost(colleague, "GET", "/me/bookings", undefined, 200);
  expect(booked.data).toEqual([expect.objectContaining({ guestName: "Gina Guest", startTime: day.set({ hour: 9, minute: 30 }).toUTC().toISO({ suppressMilliseconds: true }) })]);

  // Deleting the time off, behind a confirm, empties the list again.
  await page.goto("/dashboard/time-off");
  await page.getByRole("button", { name: /^Delete time off/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete time off" }).click();
  await expect(page.getByText("No time off planned.")).toBeVisible();
});
