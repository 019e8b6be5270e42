import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { hasChromium } from "../playwright.config";
import { expect, test } from "./support/fixtures";
import { expectAccessible } from "./support/page-checks";

// Issue 22 in the dashboard: the event-type form's booking rules and reminders (saved and shown
// again), and the Guests page: a guest looked up, their data downloaded, then erased after a
// confirmation. Both pages are checked with axe and photographed at 1280 and 390 px.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "Europe/Berlin", locale: "en-US", hostFields: { fullName: "Gus Host", timezone: "Europe/Berlin", prefix: "gd" } });

test("event-type booking rules and reminders; a guest's data looked up, downloaded and erased", async ({ page, request, host, shoot }) => {
  test.setTimeout(120_000);
  const { username } = host;
  await expect(page).toHaveURL(/\/dashboard$/);

  const starter = ((await (await page.request.get("/api/v1/me/event-types")).json()).data as { id: string; slug: string }[]).find((e) => e.slug === "30min")!;

  await test.step("the form: requires confirmation, a weekly limit, a notice of its own, two reminders", async () => {
    await page.goto(`/dashboard/event-types/${starter.id}`);
    await page.getByLabel("Requires confirmation").check();
    await page.getByLabel("Most bookings a week").fill("5");
    await page.getByLabel("Minimum notice (hours)").fill("12");
    await page.getByRole("button", { name: "Add a reminder" }).click();
    await page.getByRole("button", { name: "Add a reminder" }).click();
    await page.getByLabel("Reminder 2: how long before").fill("30");
    await page.getByLabel("Reminder 2: unit").selectOption("minutes");
    await page.getByLabel("Reminder 2: who gets it").selectOption("both");
    // A reminder too close to the start is said at its row before anything is sent.
    await page.getByLabel("Reminder 1: how long before").fill("8");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Choose a time from 5 minutes to 7 days before the start.")).toBeVisible();
    await page.getByRole("region", { name: "Reminders" }).scrollIntoViewIfNeeded();
    await expectAccessible(page);
    await shoot(page, "event-type-rules-error");
    await page.getByLabel("Reminder 1: how long before").fill("1");
    await shoot(page, "event-type-rules");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page).toHaveURL(/\/dashboard\/event-types$/);
    const saved = ((await (await page.request.get("/api/v1/me/event-types")).json()).data as { id: string }[]).find((e) => e.id === starter.id);
    expect(saved).toMatchObject({
      requiresConfirmation: true,
      limits: { perWeek: 5 },
      minNoticeHours: 12,
      maxAdvanceDays: null,
      reminders: [
        { minutesBefore: 1440, to: "guest" },
        { minutesBefore: 30, to: "both" },
      ],
    });
    // Shown again as saved.
    await page.goto(`/dashboard/event-types/${starter.id}`);
    await expect(page.getByLabel("Requires confirmation")).toBeChecked();
    await expect(page.getByLabel("Reminder 1: unit")).toHaveValue("days");
    await expect(page.getByLabel("Reminder 2: how long before")).toHaveValue("30");
  });

  const guestEmail = `zoe-${randomUUID().slice(0, 6)}@example.com`;
  await test.step("a guest books twice", async () => {
    const from = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 16 * 86_400_000).toISOString().slice(0, 10);
    const slots = (await (await request.get(`/api/v1/public/${username}/30min/slots?from=${from}&to=${to}&timezone=UTC`)).json()).slots as { startTime: string }[];
    for (const slot of [slots[0]!, slots[5]!]) {
      const booked = await request.post(`/api/v1/public/${username}/30min/bookings`, {
        headers: { "idempotency-key": randomUUID() },
        data: { startTime: slot.startTime, guestName: "Zoë Guest", guestEmail, guestTimezone: "UTC", customAnswers: {} },
      });
      expect(booked.status()).toBe(201);
    }
  });

  await test.step("Guests: look up, download, erase after a confirmation", async () => {
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Guests" }).click();
    await expect(page.getByRole("heading", { name: "Guests", level: 1 })).toBeVisible();
    await page.getByLabel("Guest's email").fill(guestEmail.toUpperCase());
    await page.getByRole("button", { name: "Look up" }).click();
    await expect(page.getByRole("heading", { name: `${guestEmail}: 2 bookings` })).toBeVisible();
    await expect(page.getByText("Zoë Guest")).toHaveCount(2);
    await expectAccessible(page);
    await shoot(page, "guests");

    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download JSON" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("guest-data.json");
    const exported = JSON.parse(readFileSync((await file.path())!, "utf8"));
    expect(exported.email).toBe(guestEmail);
    expect(exported.bookings).toHaveLength(2);

    await page.getByRole("button", { name: "Erase…" }).click();
    const dialog = page.getByRole("dialog", { name: `Erase ${guestEmail}?` });
    await expect(dialog).toBeVisible();
    await shoot(page, "guests-erase-confirm");
    await dialog.getByRole("button", { name: "Erase for good" }).click();
    await expect(page.getByText(`The data of ${guestEmail} is erased`)).toBeVisible();
    await page.getByRole("button", { name: "Look up" }).click();
    await expect(page.getByText(`You have no bookings with ${guestEmail}.`)).toBeVisible();
    await shoot(page, "guests-erased");
    await page.goto("/dashboard/bookings");
    await expect(page.getByText("Erased guest").first()).toBeVisible();
  });
});
