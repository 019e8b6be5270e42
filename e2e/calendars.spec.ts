import { expect, test } from "@playwright/test";
import { hasChromium } from "../playwright.config";
import { expectAccessible, expectNoSidewaysScroll } from "./support/page-checks";
import { calendarHost, shoot } from "./support/calendar-host";

// The host's Calendars page, the way a person uses it, against a real CalDAV server (Radicale)
// standing in for Apple iCloud: the empty state, a refused password shown at its field, a
// connection with its calendars, the two per-calendar choices kept across a reload (and the API
// agreeing), Sync now, disconnecting through the confirmation, and the OAuth callback's flags
// said in words. Checked with axe and photographed at 1280 and 390 px.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");

test("a host connects Apple iCloud, chooses calendars, syncs and disconnects on the Calendars page", async ({ browser }) => {
  test.setTimeout(180_000);
  const host = await calendarHost(browser, "cal", { work: "Work", family: "Family", side: "Side project" }, "/dashboard/calendars");
  test.skip(!host, "Radicale is not installed (apt-get install radicale): the Calendars page needs a CalDAV server to connect to; skipping");
  if (!host) return;
  const { radicale, page } = host;
  try {
    const connections = async () => (await (await page.request.get("/api/v1/me/calendar-connections")).json()).data as any[];
    const empty = page.getByText("No calendars connected yet.");
    const card = page.getByRole("article", { name: `Apple iCloud ${radicale.username}` });
    const row = (name: string) => card.getByRole("group", { name, exact: true });

    await test.step("the empty page: what calendars are for, the ways to connect one, nothing listed", async () => {
      await expect(page.getByRole("heading", { name: "Calendars", level: 1 })).toBeVisible();
      const nav = page.getByRole("navigation", { name: "Dashboard" });
      await expect(nav.getByRole("link", { name: "Calendars" })).toHaveAttribute("aria-current", "page");
      const sections = await nav.getByRole("link").allTextContents();
      expect(sections.slice(sections.indexOf("Bookings"), sections.indexOf("Bookings") + 7)).toEqual(["Bookings", "Payments", "Insights", "Guests", "Teams", "Calendars", "Webhooks"]);
      await expect(page.getByText("Connected calendars count as busy time")).toBeVisible();
      await expect(page.getByRole("link", { name: "Connect Google Calendar" })).toHaveAttribute("href", "/api/v1/me/calendar-connections/oauth/provider_a/authorize");
      await expect(page.getByRole("link", { name: "Connect Microsoft Outlook" })).toHaveAttribute("href", "/api/v1/me/calendar-connections/oauth/provider_b/authorize");
      await expect(empty).toBeVisible();
      await expectAccessible(page);
    });

    const appleId = page.getByLabel("Apple ID");
    const appPassword = page.getByLabel("App-specific password");
    const connect = page.getByRole("form", { name: "Apple iCloud" }).getByRole("button", { name: "Connect", exact: true });

    await test.step("a password the server refuses is shown at its field, and nothing is connected", async () => {
      const toggle = page.getByRole("button", { name: "Connect Apple iCloud" });
      await expect(toggle).toHaveAttribute("aria-expanded", "false");
      await toggle.click();
      await expect(toggle).toHaveAttribute("aria-expanded", "true");
      await expect(appleId).toBeFocused();
      await expect(appPassword).toHaveAttribute("type", "password");
      await expect(appPassword).toHaveAttribute("autocomplete", "off");
      await expect(appPassword).toHaveAccessibleDescription(/appleid\.apple\.com/);
      await appleId.fill(radicale.username);
      await appPassword.fill("not-the-password");
      await connect.click();
      await expect(appPassword).toHaveAttribute("aria-invalid", "true");
      await expect(appPassword).toHaveAccessibleDescription(/Wrong account or app-specific password/);
      await expect(appPassword).toBeFocused();
      await expect(empty).toBeVisible();
      expect(await connections()).toEqual([]);
    });

    await test.step("the right password: the card lists the account's calendars, Connected, just synced", async () => {
      await appPassword.fill(radicale.password);
      await expect(appPassword).not.toHaveAttribute("aria-invalid", "true");
      await connect.click();
      await expect(page.getByRole("status").filter({ hasText: `Apple iCloud connected for ${radicale.username}.` })).toBeVisible();
      await expect(appPassword).toHaveValue("");
      await expect(card).toBeVisible();
      await expect(card.getByText("Connected", { exact: true })).toBeVisible();
      await expect(card.getByText(/^Checked (just now|\d+ seconds ago)$/)).toBeVisible();
      for (const name of ["Work", "Family", "Side project"]) {
        await expect(row(name).getByRole("checkbox", { name: "Check for conflicts" })).toBeChecked();
      }
      await expect(empty).toHaveCount(0);
      // Exactly one calendar receives new bookings: the account's first writable one.
      const [stored] = await connections();
      expect(stored).toMatchObject({ provider: "provider_c", email: radicale.username, status: "connected", lastError: null });
      expect(stored.calendars.filter((c: any) => c.writeTarget)).toHaveLength(1);
      await expect(card.getByRole("radio", { name: "Add new bookings here", checked: true })).toHaveCount(1);
    });

    await test.step("another CalDAV server by its address: a private one is refused at the Server URL field, nothing connected", async () => {
      const form = page.getByRole("form", { name: "Apple iCloud" });
      const serverUrl = form.getByLabel("Server URL");
      await expect(form.getByRole("radio", { name: "Apple iCloud" })).toBeChecked();
      await expect(serverUrl).toHaveCount(0);
      await form.getByRole("radio", { name: /Other CalDAV server/ }).check();
      await expect(serverUrl).toBeVisible();
      await expect(form.getByLabel("Apple ID")).toHaveCount(0);
      await serverUrl.fill("https://192.168.1.20/remote.php/dav");
      await form.getByLabel("User name").fill("someone");
      await form.getByLabel("Password").fill("an app password");
      await connect.click();
      await expect(serverUrl).toHaveAttribute("aria-invalid", "true");
      await expect(serverUrl).toHaveAccessibleDescription(/Must not point at a private, loopback or otherwise non-public address/);
      await expect(serverUrl).toBeFocused();
      expect(await connections()).toHaveLength(1);
      await expectAccessible(page);
      await shoot(page, 1280, "calendars-caldav-server.png");
      await shoot(page, 390, "calendars-caldav-server-390.png");
      await page.setViewportSize({ width: 1280, height: 900 });
      // Back to iCloud: no address to give.
      await form.getByRole("radio", { name: "Apple iCloud" }).check();
      await expect(serverUrl).toHaveCount(0);
      await expect(appleId).toBeVisible();
    });

    await test.step("conflicts off for Family, new bookings into Side project: kept after a reload, and the API agrees", async () => {
      // At once, one after the other, as a quick host clicks: each box shows the click at once.
      await row("Family").getByRole("checkbox", { name: "Check for conflicts" }).uncheck();
      await row("Side project").getByRole("radio", { name: "Add new bookings here" }).check();
      await expect(row("Side project").getByRole("radio", { name: "Add new bookings here" })).toBeChecked();
      await expect(card.getByText("Saving…")).toHaveCount(0);
      await page.reload();
      await expect(row("Family").getByRole("checkbox", { name: "Check for conflicts" })).not.toBeChecked();
      await expect(row("Work").getByRole("checkbox", { name: "Check for conflicts" })).toBeChecked();
      await expect(row("Side project").getByRole("radio", { name: "Add new bookings here" })).toBeChecked();
      await expect(row("Work").getByRole("radio", { name: "Add new bookings here" })).not.toBeChecked();
      const [stored] = await connections();
      const flags = Object.fromEntries(stored.calendars.map((c: any) => [c.name, { checkConflicts: c.checkConflicts, writeTarget: c.writeTarget }]));
      expect(flags).toEqual({
        Work: { checkConflicts: true, writeTarget: false },
        Family: { checkConflicts: false, writeTarget: false },
        "Side project": { checkConflicts: true, writeTarget: true },
      });
    });

    await test.step("Sync now reads the calendars again", async () => {
      const sync = card.getByRole("button", { name: "Sync now" });
      await sync.click();
      await expect(card.getByRole("status").filter({ hasText: "Synced. Your busy times are up to date." })).toBeVisible();
      await expect(sync).toBeEnabled();
      await expect(card.getByText(/^Checked (just now|\d+ seconds ago)$/)).toBeVisible();
      await expect(card.getByText("Connected", { exact: true })).toBeVisible();
    });

    await test.step("while the server is down, Sync now shows a sync problem in words; when it is back, Connected again", async () => {
      await radicale.stop();
      await card.getByRole("button", { name: "Sync now" }).click();
      await expect(card.getByText("Sync problem", { exact: true })).toBeVisible();
      await expect(card.getByRole("status").filter({ hasText: "Apple iCloud could not be read at the last try. The busy times read before still count" })).toBeVisible();
      await expect(card.getByText(/^Details: /)).toBeVisible();
      await expect(card.getByRole("status").filter({ hasText: "Synced." })).toHaveCount(0);
      await expectAccessible(page);
      await radicale.start();
      await card.getByRole("button", { name: "Sync now" }).click();
      await expect(card.getByText("Connected", { exact: true })).toBeVisible();
      await expect(card.getByText(/^Details: /)).toHaveCount(0);
    });

    await test.step("accessible, keyboard operable, and fit for 1280, 390 and 360 px", async () => {
      // The form open too, so the pictures show the whole page.
      await page.getByRole("button", { name: "Connect Apple iCloud" }).click();
      await expect(appleId).toBeFocused();
      // The keyboard reaches the choices and changes them: Space on the checkbox.
      const work = row("Work").getByRole("checkbox", { name: "Check for conflicts" });
      await work.focus();
      await page.keyboard.press("Space");
      await expect(work).not.toBeChecked();
      await expect(card.getByText("Saving…")).toHaveCount(0);
      await page.keyboard.press("Space");
      await expect(work).toBeChecked();
      await expect(card.getByText("Saving…")).toHaveCount(0);
      await expectAccessible(page);
      await shoot(page, 1280, "calendars.png");
      await shoot(page, 390, "calendars-390.png");
      await page.setViewportSize({ width: 360, height: 800 });
      await expectNoSidewaysScroll(page);
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    await test.step("disconnect through the confirmation: the empty state again", async () => {
      await card.getByRole("button", { name: "Disconnect" }).click();
      const dialog = page.getByRole("dialog", { name: "Disconnect Apple iCloud?" });
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText("New bookings will not be added to any calendar");
      // Keep it: nothing happens.
      await dialog.getByRole("button", { name: "Keep it" }).click();
      await expect(dialog).toBeHidden();
      await expect(card).toBeVisible();
      await card.getByRole("button", { name: "Disconnect" }).click();
      await dialog.getByRole("button", { name: "Disconnect" }).click();
      await expect(empty).toBeVisible();
      await expect(card).toHaveCount(0);
      await expect(page.getByRole("heading", { name: "Your calendars" })).toBeFocused();
      expect(await connections()).toEqual([]);
    });

    await test.step("the OAuth callback's outcome is said in plain words, once", async () => {
      await page.goto("/dashboard/calendars?error=access_denied");
      await expect(page.getByRole("alert").filter({ hasText: "You declined access, so nothing was connected." })).toBeVisible();
      // A reload does not say it again.
      await expect(page).toHaveURL(/\/dashboard\/calendars$/);
      await expectAccessible(page);
      await page.reload();
      await expect(empty).toBeVisible();
      await expect(page.getByText("You declined access")).toHaveCount(0);

      await page.goto("/dashboard/calendars?connected=provider_b");
      await expect(page.getByRole("status").filter({ hasText: "Microsoft Outlook connected." })).toBeVisible();
      await page.goto("/dashboard/calendars?error=provider_unavailable");
      await expect(page.getByRole("alert").filter({ hasText: "The provider could not be reached" })).toBeVisible();

      // This server has no Google OAuth client: the Connect button comes back to the page with
      // the reason, never to a raw JSON error.
      await page.getByRole("link", { name: "Connect Google Calendar" }).click();
      await expect(page).toHaveURL(/\/dashboard\/calendars/);
      await expect(page.getByRole("alert").filter({ hasText: "not set up on this server" })).toBeVisible();
    });
  } finally {
    await host.close();
  }
});
