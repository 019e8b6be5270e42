import type { Page } from "@playwright/test";
import { hasChromium } from "../playwright.config";
import { createEventType, expect, test } from "./support/fixtures";
import { expectAccessible, expectNoSidewaysScroll } from "./support/page-checks";

// The Availability page edits any of the host's schedules (decisions §16): a new one is made as a
// copy of the one on screen, renamed, given its own zone and hours, made the default; the old
// default is then deleted, and one an event type uses is refused in words.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "Europe/Berlin", viewport: { width: 1280, height: 900 }, hostFields: { fullName: "Sam Schedule", timezone: "Europe/Berlin", prefix: "sched" } });

const api = (path: string) => `/api/v1${path}`;
const saved = (page: Page) => page.getByRole("status").filter({ hasText: /^Saved$/ });
const interval = (page: Page, name: string) => page.getByRole("group", { name, exact: true });

/** A full-page picture, scrolled to the end first so the sticky save bar sits where it ends up. */
async function shoot(page: Page, path: string) {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.screenshot({ path, fullPage: true });
}

test("a host keeps two schedules, edits each, switches the default and deletes one", async ({ page, host }) => {
  await page.goto("/dashboard/availability");

  const picker = page.getByRole("combobox", { name: "Schedule" });
  await test.step("the default schedule is on screen, marked", async () => {
    await expect(picker.locator("option:checked")).toHaveText("Working hours (default)");
    await expect(page.getByText("Your default schedule")).toBeVisible();
    await expect(page.getByLabel("Minimum notice (hours)")).toBeVisible();
    await expect(page.getByRole("button", { name: "Delete" })).toHaveCount(0);
    await expectAccessible(page);
  });

  await test.step("a new schedule, in New York, with its own Tuesday evening", async () => {
    await page.getByRole("button", { name: "New schedule" }).click();
    await page.getByLabel("Name of the new schedule").fill("Evenings");
    await page.getByRole("button", { name: "Create" }).click();
    await expect(picker.locator("option:checked")).toHaveText("Evenings");
    // A copy of the default's hours; the host's notice and window are not a schedule's.
    await expect(interval(page, "Monday, interval 1").getByLabel("Start")).toHaveValue("09:00");
    await expect(page.getByLabel("Minimum notice (hours)")).toHaveCount(0);
    await page.getByRole("combobox", { name: "Timezone" }).fill("new york");
    await page.getByRole("option", { name: /America\/New York/ }).first().click();
    await expect(page.getByRole("combobox", { name: "Timezone" })).toHaveValue("Eastern Time (US & Canada)");
    await interval(page, "Tuesday, interval 1").getByLabel("Start").fill("18:00");
    await interval(page, "Tuesday, interval 1").getByLabel("End").fill("21:00");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(saved(page)).toBeVisible();
    const list = (await (await page.request.get(api("/me/schedules"))).json()).data as { name: string; timezone: string; weeklyRules: { dayOfWeek: number; startTime: string }[] }[];
    expect(list.map((s) => s.name)).toEqual(["Working hours", "Evenings"]);
    expect(list[1]!.timezone).toBe("America/New_York");
    expect(list[1]!.weeklyRules.find((r) => r.dayOfWeek === 2)).toMatchObject({ startTime: "18:00" });
    expect(list[0]!.weeklyRules.find((r) => r.dayOfWeek === 2)).toMatchObject({ startTime: "09:00" });
  });

  await test.step("screenshots at 1280 and 390 px", async () => {
    await expectNoSidewaysScroll(page);
    await shoot(page, "e2e/screenshots/availability-schedules.png");
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await shoot(page, "e2e/screenshots/availability-schedules-390.png");
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  await test.step("an event type's form offers the schedules: the default first, then Evenings", async () => {
    await page.goto("/dashboard/event-types/new");
    const hours = page.getByLabel("Hours from");
    await expect(hours.locator("option")).toHaveText(["Working hours (your default)", "Evenings"]);
    await expect(hours.locator("option:checked")).toHaveText("Working hours (your default)");
    await page.goto("/dashboard/availability");
    await picker.selectOption({ label: "Evenings" });
  });

  await test.step("an event type uses it: deleting it is refused in words", async () => {
    const id = ((await (await page.request.get(api("/me/schedules"))).json()).data as { id: string }[])[1]!.id;
    await createEventType(host, { slug: "late", title: "Late call", durationMinutes: 30, scheduleId: id });
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete schedule" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "in use" })).toContainText("“Late call”");
    await expect(picker.locator("option:checked")).toHaveText("Evenings");
  });

  await test.step("rename it and make it the default; the old default can then go", async () => {
    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByLabel("New name").fill("Late hours");
    await page.getByRole("button", { name: "Rename" }).last().click();
    await expect(picker.locator("option:checked")).toHaveText("Late hours");
    await page.getByRole("button", { name: "Make default" }).click();
    await expect(picker.locator("option:checked")).toHaveText("Late hours (default)");
    await expect(page.getByLabel("Minimum notice (hours)")).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Timezone" })).toHaveValue("Eastern Time (US & Canada)");
    expect((await (await page.request.get(api("/me"))).json()).timezone).toBe("America/New_York");

    await picker.selectOption({ label: "Working hours" });
    await expect(page.getByRole("combobox", { name: "Timezone" })).toHaveValue("Central European Time – Berlin");
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete schedule" }).click();
    await expect(picker.locator("option")).toHaveText(["Late hours (default)"]);
  });
});
