import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { asHost, createEventType, expect, openDay, test } from "./support/fixtures";
import { expectAccessible } from "./support/page-checks";

// One-time links (decisions §21) as a host and a guest use them: on a switched-off event type's
// page the host makes a link and copies it; a guest opens it, books, and opening it again says
// the link has been used, naming the host. Pictures at 1280 and 390 px.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ permissions: ["clipboard-read", "clipboard-write"], timezoneId: "Europe/Berlin", locale: "en-US" });

test("a host copies a one-time link of a hidden event type; a guest books with it once", async ({ page, host, newPage, shoot }) => {
  let date = DateTime.now().setZone(host.timezone).startOf("day").plus({ days: 3 });
  while (date.weekday >= 6) date = date.plus({ days: 1 });
  await openDay(host, date.toISODate()!, ["09:00", "12:00"]);
  const eventType = await createEventType(host, { slug: "private-chat", title: "Private chat", durationMinutes: 30 });
  await asHost(host, "PATCH", `/me/event-types/${eventType.id}`, { isActive: false }, 200);

  await page.goto(`/dashboard/event-types/${eventType.id}`);
  const section = page.getByRole("region", { name: "One-time links" });
  await expect(section.getByText("A one-time link works even when the event type is hidden")).toBeVisible();
  await expect(section.getByText("No unused links.")).toBeVisible();
  await section.getByLabel("Expires after").selectOption({ label: "30 days" });
  await section.getByRole("button", { name: "Create link" }).click();
  const shown = section.getByTestId("one-time-link-url");
  await expect(shown).toHaveText(/\/d\/[A-Za-z0-9_-]{43}$/);
  const url = (await shown.textContent())!.trim();
  await section.getByRole("button", { name: /^Copy link/ }).click();
  await expect(section.getByText("Copied")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await expect(section.getByRole("listitem")).toHaveCount(1);
  await section.scrollIntoViewIfNeeded();
  await expectAccessible(page);
  await shoot(page, "one-time-links-editor");

  // The guest: the hidden event type's booking page, through the link.
  const guest = await newPage();
  expect((await guest.goto(url))?.status()).toBe(200);
  await expect(guest.getByRole("heading", { level: 1, name: "Private chat" })).toBeVisible();
  const times = guest.getByRole("group", { name: date.toFormat("cccc, LLLL d") }).getByRole("button");
  await expect(times.first()).toBeVisible();
  await expectAccessible(guest);
  await shoot(guest, "one-time-link-page");
  await times.first().click();
  await guest.getByLabel("Your name").fill("Olga Once");
  await guest.getByLabel("Email").fill("olga@example.com");
  await guest.getByRole("button", { name: "Confirm booking" }).click();
  await expect(guest.getByRole("heading", { name: "You are booked" })).toBeFocused();
  await expect(guest.getByRole("status")).toContainText("Private chat");

  // Opened again: used, in plain words, naming the host (who offers nothing else: no link onward),
  // answered 410 Gone like the API.
  const again = await guest.goto(url);
  expect(again?.status()).toBe(410);
  await expect(guest.getByRole("heading", { level: 1, name: "This booking link has already been used" })).toBeVisible();
  await expect(guest.getByText(`Ask ${host.fullName} for a new link.`)).toBeVisible();
  await expectAccessible(guest);
  await shoot(guest, "one-time-link-used");
  const api = await guest.request.get(`/api/v1/public/links/${url.split("/").pop()}`);
  expect(api.status()).toBe(410);

  // The host's list no longer has it.
  await page.reload();
  await expect(section.getByText("No unused links.")).toBeVisible();
});
