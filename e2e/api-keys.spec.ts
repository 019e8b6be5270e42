import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { callApi, createEventType, expect, openDay, test } from "./support/fixtures";
import { expectAccessible } from "./support/page-checks";

// Settings → API keys, the way a person uses it: make a key with a scope, copy it, hand it to
// the README's script (run as a separate process over real HTTP), revoke it, and see the script
// refused.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ permissions: ["clipboard-read", "clipboard-write"], timezoneId: "Europe/Berlin" });

const run = promisify(execFile);

/** The README's script, with the key and the service's address in its environment. */
async function tomorrowsBookings(site: string, key: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run("npx", ["tsx", "examples/tomorrows-bookings.mts"], { env: { ...process.env, BOOKING_URL: site, BOOKING_API_KEY: key }, timeout: 60_000 });
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, out: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

test("a host makes a key, a script lists tomorrow's bookings with it, and a revoked key is refused", async ({ page, host, shoot }) => {
  // A booking tomorrow (UTC, the script's tomorrow) for the script to find.
  const tomorrow = DateTime.utc().plus({ days: 1 }).toISODate()!;
  await openDay(host, tomorrow, ["09:00", "12:00"]);
  await createEventType(host, { slug: "intro", title: "Intro call", durationMinutes: 30 });
  const guestName = `Guest ${randomUUID().slice(0, 6)}`;
  const booked = await fetch(`${host.site}/api/v1/public/${host.username}/intro/bookings`, {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
    body: JSON.stringify({ startTime: `${tomorrow}T10:00:00Z`, guestName, guestEmail: "guest@example.com", guestTimezone: "Europe/Berlin" }),
  });
  expect(booked.status).toBe(201);

  await page.goto("/dashboard/settings");
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "API keys" }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings\/api-keys$/);
  await expect(page.getByText("No keys yet.")).toBeVisible();
  await shoot(page, "api-keys-empty");

  await page.getByRole("textbox", { name: "Name" }).fill("Tomorrow script");
  // Bookings: read is ticked to begin with; ticking Write holds it, unticking lets it go.
  const read = page.getByRole("checkbox", { name: /^Bookings: Read/ });
  const write = page.getByRole("checkbox", { name: /^Bookings: Write/ });
  await expect(read).toBeChecked();
  await write.check();
  await expect(read).toBeDisabled();
  await write.uncheck();
  await expect(read).toBeEnabled();
  await expect(read).toBeChecked();
  await page.getByLabel("Expires").selectOption({ label: "In 90 days" });
  await page.getByRole("button", { name: "Make key" }).click();
  await expect(page.getByText("the key is shown only once")).toBeVisible();
  await page.getByRole("button", { name: "Copy key" }).click();
  const key = await page.evaluate(() => navigator.clipboard.readText());
  expect(key).toMatch(/^bk_[A-Za-z0-9_-]{43}$/);
  await expect(page.getByTestId("new-api-key")).toHaveText(key);
  const listed = page.getByRole("listitem").filter({ hasText: "Tomorrow script" });
  await expect(listed).toContainText(`${key.slice(0, 8)}…`);
  await expect(listed).toContainText("never used");
  await expect(listed).toContainText("bookings:read");
  await expectAccessible(page);
  await shoot(page, "api-keys-made");

  const first = await tomorrowsBookings(host.site, key);
  expect(first.code, first.out).toBe(0);
  expect(first.out).toContain(guestName);
  expect(first.out).toContain("Intro call");
  // The key may read bookings, and nothing else.
  expect((await callApi(host.site, "GET", "/me/event-types", { token: key })).status).toBe(403);

  await page.reload();
  await expect(listed).toContainText("last used");
  await listed.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByText("No keys yet.")).toBeVisible();

  const after = await tomorrowsBookings(host.site, key);
  expect(after.code).not.toBe(0);
  expect(after.out).toContain("401");
});
