import { randomUUID } from "node:crypto";
import { expect, test, type Page, type Route } from "@playwright/test";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { expectAccessible, expectNoSidewaysScroll } from "./support/page-checks";

// A host signs up, sets their availability and profile in the dashboard, the way a person
// would: by role and label, with the keyboard where a person would use it. The browser is in
// New York; the host picks Berlin, then moves to Tokyo.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "America/New_York", viewport: { width: 1280, height: 900 } });



/** A full-page picture, scrolled to the end first so the sticky save bar sits where it ends up rather than across a day. */
async function shoot(page: Page, path: string) {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.screenshot({ path, fullPage: true });
}

const longDate = (date: string) => DateTime.fromISO(date, { locale: "en-US" }).toFormat("cccc, LLLL d, yyyy");
const interval = (page: Page, name: string) => page.getByRole("group", { name, exact: true });
const saved = (page: Page) => page.getByRole("status").filter({ hasText: /^Saved$/ });

test("login and sign-up pages are accessible and link to each other", async ({ page }) => {
  await page.goto("/login");
  await expectAccessible(page);
  await page.getByRole("link", { name: "Create an account" }).click();
  await expect(page).toHaveURL(/\/register$/);
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/login$/);
  for (const width of [360, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/register");
    await expectNoSidewaysScroll(page);
  }
});

test("a host signs up, sets split hours, overrides and limits, and edits the profile", async ({ page, request }) => {
  const username = `host-${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  const taken = `taken-${randomUUID().slice(0, 8)}`;
  expect(
    (await request.post("/api/v1/auth/register", { data: { email: `${taken}@example.com`, password: "another password", fullName: "Someone", username: taken, timezone: "UTC" } })).status(),
  ).toBe(201);

  await test.step("sign up with a timezone chosen in the searchable picker", async () => {
    await page.goto("/register");
    const timezone = page.getByRole("combobox", { name: "Timezone" });
    // The browser's own zone is the default.
    await expect(timezone).toHaveValue("Eastern Time (US & Canada)");

    await page.getByLabel("Full name").fill("Ada Lovelace");
    await expect(page.getByLabel("Username")).toHaveValue("ada-lovelace");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("textbox", { name: "Password" }).fill("short");
    await page.getByLabel("Username").fill("No");
    await page.getByRole("button", { name: "Create account" }).click();
    // The API's issues, each at its field; the first invalid field gets the focus.
    await expect(page.getByRole("textbox", { name: "Password" })).toHaveAccessibleDescription(/8 to 128 characters.*at least 8 characters/);
    await expect(page.getByLabel("Username")).toHaveAccessibleDescription(/Must be 3–40 lower-case letters/);
    await expect(page.getByRole("textbox", { name: "Password" })).toBeFocused();

    await page.getByRole("textbox", { name: "Password" }).fill("correct horse battery");
    await page.getByLabel("Username").fill(taken);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByLabel("Username")).toHaveAccessibleDescription(/This username is taken/);
    await page.getByLabel("Username").fill(username);

    // Search, move with the keyboard, pick with Enter.
    await timezone.fill("berl");
    await expect(timezone).toHaveAttribute("aria-expanded", "true");
    const berlin = page.getByRole("option", { name: /^Central European Time.*Europe\/Berlin \(UTC\+0[12]:00\)$/ });
    await expect(berlin).toBeVisible();
    await expect(timezone).toHaveAttribute("aria-activedescendant", (await berlin.getAttribute("id"))!);
    await timezone.press("Enter");
    await expect(timezone).toHaveValue("Central European Time – Berlin");
    await expect(timezone).toHaveAttribute("aria-expanded", "false");
    // ↓ on the closed picker opens the whole list at the current zone; ↓ and ↑ move through it.
    const active = async () => (await page.locator(`#${await timezone.getAttribute("aria-activedescendant")}`).textContent()) ?? "";
    await timezone.press("ArrowDown");
    await expect(timezone).toHaveAttribute("aria-expanded", "true");
    await expect.poll(active).toMatch(/Europe\/Berlin/);
    await timezone.press("ArrowDown");
    await expect.poll(active).not.toMatch(/Europe\/Berlin/);
    await timezone.press("ArrowUp");
    await expect.poll(active).toMatch(/Europe\/Berlin/);
    // Escape leaves the choice as it was, whatever was typed.
    await timezone.fill("tokyo");
    await timezone.press("Escape");
    await expect(timezone).toHaveAttribute("aria-expanded", "false");
    await expect(timezone).toHaveValue("Central European Time – Berlin");

    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Hello, Ada Lovelace" })).toBeVisible();
    // Signed in, /register has nothing to offer.
    await page.goto("/register");
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  const zone = "Europe/Berlin";
  const today = DateTime.now().setZone(zone);
  const closedDate = today.plus({ days: 10 }).toISODate()!;
  // A Sunday (off every week) that opens for the morning and early afternoon.
  const openDate = today.plus({ days: 21 - (today.weekday % 7) }).toISODate()!;
  const split = [
    { startTime: "09:00", endTime: "12:00" },
    { startTime: "13:00", endTime: "17:00" },
  ];
  const expected = {
    timezone: zone,
    minNoticeHours: 12,
    maxAdvanceDays: 90,
    weeklyRules: [
      ...[1, 2, 3, 4, 5].flatMap((dayOfWeek) => split.map((s) => ({ dayOfWeek, ...s }))),
      { dayOfWeek: 6, startTime: "18:00", endTime: "24:00" },
    ],
    dateOverrides: [
      { date: closedDate, available: false },
      { date: openDate, available: true, intervals: [{ startTime: "10:00", endTime: "12:00" }, { startTime: "13:00", endTime: "14:30" }] },
    ].sort((a, b) => a.date.localeCompare(b.date)),
  };

  await test.step("the page arrives with its hours: a failing API in the browser shows no loading and no error", async () => {
    const failing = async (route: Route) => {
      if (route.request().method() !== "GET") return route.continue();
      await route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: "internal_error", message: "The service is busy.", details: {} }) });
    };
    await page.route("**/api/v1/me/availability", failing);
    // A full load: the server renders the hours into the page (no request from the browser needed).
    await page.goto("/dashboard/availability");
    await expect(page.getByRole("heading", { name: "Weekly hours" })).toBeVisible();
    await expect(page.getByText("Loading your availability…")).toHaveCount(0);
    await expect(page.getByText("We could not load your availability.")).toHaveCount(0);
    await page.unroute("**/api/v1/me/availability", failing);
  });

  await test.step("set split hours, copy them, add overrides and limits, save", async () => {
    await expect(page.getByRole("heading", { name: "Availability", level: 1 })).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Timezone" })).toHaveValue("Central European Time – Berlin");
    await expectAccessible(page);

    // A new host works Monday to Friday, 09:00–17:00. Monday gets a lunch break.
    const monday = page.getByRole("group", { name: "Monday", exact: true });
    await interval(page, "Monday, interval 1").getByLabel("End").fill("12:00");
    await monday.getByRole("button", { name: "Add an interval to Monday" }).click();
    const second = interval(page, "Monday, interval 2");
    await expect(second.getByLabel("Start")).toBeFocused();
    await second.getByLabel("Start").fill("13:00");
    await second.getByLabel("End").fill("17:00");

    // Copy Monday to Tuesday–Friday through the copy menu, checking days with the keyboard.
    await monday.getByRole("button", { name: "Copy Monday's hours to other days" }).click();
    const copyTo = page.getByRole("group", { name: "Copy Monday's hours to" });
    await expect(copyTo.getByLabel("Select all")).toBeFocused();
    for (const day of ["Tuesday", "Wednesday", "Thursday", "Friday"]) await copyTo.getByLabel(day).check();
    await copyTo.getByRole("button", { name: "Apply" }).click();
    await expect(copyTo).toHaveCount(0);
    await expect(monday.getByRole("button", { name: "Copy Monday's hours to other days" })).toBeFocused();
    for (const day of ["Tuesday", "Friday"]) {
      await expect(interval(page, `${day}, interval 2`).getByLabel("Start")).toHaveValue("13:00");
      await expect(interval(page, `${day}, interval 1`).getByLabel("End")).toHaveValue("12:00");
    }

    // Saturday evenings until midnight: an end of 00:00 is 24:00.
    await page.getByRole("switch", { name: "Saturday" }).check();
    await interval(page, "Saturday, interval 1").getByLabel("Start").fill("18:00");
    await interval(page, "Saturday, interval 1").getByLabel("End").fill("00:00");
    await expect(interval(page, "Saturday, interval 1")).toContainText("Until midnight (24:00)");

    // One date closed, one (a Sunday) with hours of its own.
    await page.getByRole("button", { name: "Add a date override" }).click();
    await expect(page.getByLabel("Date", { exact: true })).toBeFocused();
    await page.getByLabel("Date", { exact: true }).fill(closedDate);
    const closed = page.getByRole("group", { name: longDate(closedDate), exact: true });
    await expect(closed.getByLabel("Closed all day")).toBeChecked();

    await page.getByRole("button", { name: "Add a date override" }).click();
    await page.getByRole("group", { name: "New date override" }).getByLabel("Date", { exact: true }).fill(openDate);
    const open = page.getByRole("group", { name: longDate(openDate), exact: true });
    await open.getByLabel("Available at these hours").check();
    await interval(page, `${longDate(openDate)}, interval 1`).getByLabel("Start").fill("10:00");
    await interval(page, `${longDate(openDate)}, interval 1`).getByLabel("End").fill("12:00");
    await open.getByRole("button", { name: `Add an interval to ${longDate(openDate)}` }).click();
    await interval(page, `${longDate(openDate)}, interval 2`).getByLabel("Start").fill("13:00");
    await interval(page, `${longDate(openDate)}, interval 2`).getByLabel("End").fill("14:30");

    await page.getByLabel("Minimum notice (hours)").fill("12");
    await page.getByLabel("Booking window (days)").fill("90");
    await expect(page.getByText("You have unsaved changes")).toBeVisible();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(saved(page)).toBeVisible();
  });

  await test.step("after a reload everything is kept, and the API says so too", async () => {
    await page.reload();
    await expect(interval(page, "Monday, interval 2").getByLabel("Start")).toHaveValue("13:00");
    await expect(interval(page, "Thursday, interval 1").getByLabel("End")).toHaveValue("12:00");
    await expect(interval(page, "Friday, interval 2").getByLabel("End")).toHaveValue("17:00");
    await expect(page.getByRole("switch", { name: "Sunday" })).not.toBeChecked();
    await expect(interval(page, "Saturday, interval 1").getByLabel("End")).toHaveValue("00:00");
    await expect(page.getByRole("group", { name: longDate(closedDate), exact: true }).getByLabel("Closed all day")).toBeChecked();
    await expect(interval(page, `${longDate(openDate)}, interval 2`).getByLabel("End")).toHaveValue("14:30");
    await expect(page.getByLabel("Minimum notice (hours)")).toHaveValue("12");
    await expect(page.getByLabel("Booking window (days)")).toHaveValue("90");
    expect(await (await page.request.get("/api/v1/me/availability")).json()).toEqual(expected);
  });

  await test.step("screenshots at 1280 and 390 px: nothing wider than the screen, focus visible", async () => {
    await interval(page, "Monday, interval 2").getByLabel("Start").focus();
    await page.keyboard.press("Shift+Tab"); // keyboard focus, so :focus-visible shows its ring
    await expectNoSidewaysScroll(page);
    await shoot(page, "e2e/screenshots/availability-editor.png");
    for (const width of [390, 360]) {
      await page.setViewportSize({ width, height: 844 });
      await expectNoSidewaysScroll(page);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    // The copy menu opens inside the screen on a phone.
    await page.getByRole("button", { name: "Copy Wednesday's hours to other days" }).click();
    const menu = await page.getByRole("group", { name: "Copy Wednesday's hours to" }).boundingBox();
    expect(menu!.x).toBeGreaterThanOrEqual(0);
    expect(menu!.x + menu!.width).toBeLessThanOrEqual(390);
    await page.keyboard.press("Escape");
    await interval(page, "Monday, interval 1").getByLabel("End").focus();
    await shoot(page, "e2e/screenshots/availability-editor-390.png");
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  await test.step("invalid entries are shown at their rows and change nothing", async () => {
    // Caught by the page before anything is sent: an end before its start, overlapping intervals.
    await interval(page, "Wednesday, interval 1").getByLabel("End").fill("08:00");
    await interval(page, "Thursday, interval 2").getByLabel("Start").fill("11:00");
    await page.getByRole("button", { name: "Save" }).click();
    // (Next's route announcer is an empty alert too.)
    const summary = page.getByRole("alert").filter({ hasText: "to fix" });
    await expect(summary).toContainText("2 things to fix");
    // The focus is on the first row to fix; the summary is announced (an alert) and links to each.
    const wednesdayEnd = interval(page, "Wednesday, interval 1").getByLabel("End");
    await expect(wednesdayEnd).toBeFocused();
    await expect(wednesdayEnd).toHaveAttribute("aria-invalid", "true");
    await expect(wednesdayEnd).toHaveAccessibleDescription("The end must be after the start.");
    await expect(interval(page, "Thursday, interval 2").getByLabel("Start")).toHaveAccessibleDescription("Overlaps 09:00–12:00.");
    await summary.getByRole("button", { name: /^Thursday, interval 2:/ }).click();
    await expect(interval(page, "Thursday, interval 2").getByLabel("Start")).toBeFocused();
    await expectAccessible(page);

    // Fixing a row clears its message.
    await wednesdayEnd.fill("12:00");
    await interval(page, "Thursday, interval 2").getByLabel("Start").fill("13:00");
    await expect(summary).toHaveCount(0);

    // Caught by the API only (the page does not know its date bounds): its issue path,
    // dateOverrides.<i>.date, comes back to that override's date field.
    const closed = page.getByRole("group", { name: longDate(closedDate), exact: true });
    await closed.getByLabel("Date", { exact: true }).fill("1969-07-20");
    await page.getByRole("button", { name: "Save" }).click();
    const dateField = page.getByRole("group", { name: longDate("1969-07-20"), exact: true }).getByLabel("Date", { exact: true });
    await expect(dateField).toHaveAttribute("aria-invalid", "true");
    await expect(dateField).toHaveAccessibleDescription(/in the years 1970–9999/);
    await expect(summary).toContainText(`Override for ${longDate("1969-07-20")}`);
    await expect(saved(page)).toHaveCount(0);

    expect(await (await page.request.get("/api/v1/me/availability")).json()).toEqual(expected);
    await dateField.fill(closedDate);
    await expect(page.getByText("You have unsaved changes")).toHaveCount(0);
  });

  await test.step("settings: name, avatar and timezone persist", async () => {
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Settings" }).click();
    await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
    await expect(page.getByLabel("Full name")).toHaveValue("Ada Lovelace");
    await expect(page.getByText(email).first()).toBeVisible();
    await expect(page.getByRole("link", { name: new RegExp(`/${username} \\(opens in a new tab\\)$`) })).toBeVisible();
    await expectAccessible(page);

    await page.getByLabel("Full name").fill("Ada King");
    await page.getByLabel("Avatar URL").fill("ftp://example.com/me.png");
    const timezone = page.getByRole("combobox", { name: "Timezone" });
    await timezone.fill("tokyo");
    await page.getByRole("option", { name: /Asia\/Tokyo/ }).click();
    await expect(timezone).toHaveValue("Japan Standard Time – Tokyo");
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect(page.getByLabel("Avatar URL")).toHaveAccessibleDescription(/Must be an http\(s\) URL/);
    await expect(page.getByRole("alert").filter({ hasText: "was not saved" })).toBeVisible();

    const avatar = new URL("/favicon.svg", page.url()).href;
    await page.getByLabel("Avatar URL").fill(avatar);
    await expect(page.getByRole("img", { name: "Avatar preview" })).toBeVisible();
    await expect(page.getByLabel("Language of your emails")).toHaveValue("en");
    await page.getByLabel("Language of your emails").selectOption({ label: "Deutsch" });
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect(saved(page)).toBeVisible();

    await page.reload();
    await expect(page.getByLabel("Full name")).toHaveValue("Ada King");
    await expect(page.getByRole("combobox", { name: "Timezone" })).toHaveValue("Japan Standard Time – Tokyo");
    await expect(page.getByLabel("Avatar URL")).toHaveValue(avatar);
    await expect(page.getByLabel("Language of your emails")).toHaveValue("de");
    await expect(page.getByRole("banner")).toContainText("Ada King");
    expect(await (await page.request.get("/api/v1/me")).json()).toMatchObject({ fullName: "Ada King", timezone: "Asia/Tokyo", avatarUrl: avatar, language: "de", username, email });

    // One timezone for the profile and the hours.
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Availability" }).click();
    await expect(page.getByRole("combobox", { name: "Timezone" })).toHaveValue("Japan Standard Time – Tokyo");
    for (const width of [390, 360]) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto("/dashboard/settings");
      await expect(page.getByLabel("Full name")).toBeVisible();
      await expectNoSidewaysScroll(page);
      if (width === 390) await page.screenshot({ path: "e2e/screenshots/settings-profile-390.png", fullPage: true });
    }
  });
});
