import { expect, test } from "@playwright/test";
import { hasChromium } from "../playwright.config";
import { expectAccessible, expectNoSidewaysScroll } from "./support/page-checks";
import { calendarHost, shoot, SHOTS } from "./support/calendar-host";
import { post } from "./support/server";

// A broken calendar is never silent (decisions §21): a connection that stopped syncing (here,
// its CalDAV server down when it syncs) puts a banner on every dashboard page, with since when,
// what it means, and the way to the Calendars page, whose card says since when and how old the
// busy data is. The event type editor's "Calendars that block this event type" lists the
// calendars to choose. Checked with axe and photographed at 1280 and 390 px.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");

test("a broken calendar shows a banner on the dashboard's pages, leading to the Calendars page that says since when", async ({ browser }) => {
  test.setTimeout(180_000);
  const host = await calendarHost(browser, "broken", { work: "Work", family: "Family" }, "/dashboard/event-types");
  test.skip(!host, "Radicale is not installed (apt-get install radicale): the connection needs a CalDAV server; skipping");
  if (!host) return;
  const { radicale, server, page, email, password } = host;
  try {
    // The API as the host's own script would call it: a bearer token.
    const token = (await post(`${server.url}/api/v1/auth/login`, { email, password })).body.accessToken as string;
    const made = await post(`${server.url}/api/v1/me/calendar-connections/provider_c`, { providerAccountId: radicale.username, appSpecificPassword: radicale.password }, token);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const connection = made.body;
    const banner = page.getByRole("status").filter({ hasText: "stopped syncing" });

    await test.step("connected: no banner; the editor lists the calendars to choose", async () => {
      await page.reload();
      await expect(page.getByRole("heading", { name: "Event types", level: 1 })).toBeVisible();
      await expect(banner).toHaveCount(0);
      await page.goto("/dashboard/event-types/new");
      const section = page.getByRole("region", { name: "Calendars that block this event type" });
      await expect(section.getByRole("radio", { name: /All calendars marked “check for conflicts”/ })).toBeChecked();
      await section.getByRole("radio", { name: /Only the calendars I choose/ }).check();
      await expect(section.getByRole("checkbox", { name: /Work/ })).toBeVisible();
      await expect(section.getByRole("checkbox", { name: /Family/ })).toBeVisible();
      await expect(section.getByText("No calendar chosen: none of your calendars block this event type.")).toBeVisible();
      await section.getByRole("checkbox", { name: /Work/ }).check();
      await expect(section.getByText("No calendar chosen")).toHaveCount(0);
      await expectAccessible(page);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await expectNoSidewaysScroll(page);
        await section.screenshot({ path: `${SHOTS}/event-type-conflict-calendars-${width}.png` });
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    await test.step("the server down at a sync: the banner on the event types page says which, since when, and what it means", async () => {
      await radicale.stop();
      const synced = await post(`${server.url}/api/v1/me/calendar-connections/${connection.id}/sync`, undefined, token);
      expect(synced.body.status).toBe("error");
      await page.goto("/dashboard/event-types");
      await expect(banner).toBeVisible();
      await expect(banner).toContainText(/^Your (Work|Family) calendar \(Apple iCloud\) stopped syncing on \w{3}, \w{3} \d{1,2}, \d{4} · \d{1,2}:\d{2} (AM|PM)\. Guests may book over its events\.Reconnect$/);
      await expect(banner).not.toContainText(/\d{4}-\d{2}-\d{2}T/);
      await expectAccessible(page);
      await shoot(page, 1280, "calendars-broken-banner-1280.png");
      await shoot(page, 390, "calendars-broken-banner-390.png");
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    await test.step("Reconnect leads to the Calendars page, whose card says since when and how old the busy data is", async () => {
      await banner.getByRole("link", { name: "Reconnect" }).click();
      await expect(page).toHaveURL(/\/dashboard\/calendars$/);
      const card = page.getByRole("article", { name: `Apple iCloud ${radicale.username}` });
      await expect(card.getByText("Sync problem", { exact: true })).toBeVisible();
      await expect(card.getByText(/^Stopped syncing on .+\. Busy data as of .+\. Until it syncs again, guests may book over events added since\.$/)).toBeVisible();
      await expectAccessible(page);
      await shoot(page, 390, "calendars-broken-card-390.png");
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    await test.step("back up: the banner goes", async () => {
      await radicale.start();
      await page.getByRole("article", { name: `Apple iCloud ${radicale.username}` }).getByRole("button", { name: "Sync now" }).click();
      await expect(page.getByRole("article", { name: `Apple iCloud ${radicale.username}` }).getByText("Connected", { exact: true })).toBeVisible();
      await expect(banner).toHaveCount(0);
    });
  } finally {
    await host.close();
  }
});
