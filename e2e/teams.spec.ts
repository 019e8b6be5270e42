import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { hasChromium } from "../playwright.config";
import { expectAccessible, expectNoSidewaysScroll } from "./support/page-checks";

// Issue 21's dashboard part, the way two people use it: Ada creates a team and invites Grace by
// her username; Grace sees the invitation on her Teams page and accepts; Ada sees her active and
// gives the team a round-robin event type they both host, whose link she can copy. Along the way:
// a taken team link is said at its field, and the last owner is told why she cannot leave. The
// Teams page and the team's page are checked with axe and photographed at 1280 and 390 px.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "Europe/Berlin", locale: "en-US" });

const SHOTS = "e2e/screenshots";

/** At 1280 and 390 px: no sideways scroll, and a picture of each. */
async function bothWidths(page: Page, name: string) {
  for (const [width, suffix] of [[1280, ""], [390, "-390"]] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(150);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/${name}${suffix}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

type Person = { username: string; email: string; password: string; fullName: string };

async function register(page: Page, fullName: string): Promise<Person> {
  const username = `${fullName.split(" ")[0]!.toLowerCase()}-${randomUUID().slice(0, 8)}`;
  const person = { username, email: `${username}@example.com`, password: "team password 1", fullName };
  const res = await page.request.post("/api/v1/auth/register", { data: { ...person, timezone: "Europe/Berlin" } });
  expect(res.status()).toBe(201);
  return person;
}

async function logIn(browser: Browser, person: Person): Promise<Page> {
  const page = await (await browser.newContext({ timezoneId: "Europe/Berlin", locale: "en-US" })).newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { name: `Hello, ${person.fullName}` })).toBeVisible();
  return page;
}

test("a team: create, invite, accept, and a round-robin event type both host", async ({ browser, page }) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const ada = await register(page, "Ada Lovelace");
  const grace = await register(page, "Grace Hopper");
  const teamSlug = `sales-${randomUUID().slice(0, 6)}`;
  const a = await logIn(browser, ada);

  await test.step("Ada creates a team from the Teams page", async () => {
    await a.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Teams" }).click();
    await expect(a.getByRole("heading", { name: "Teams", level: 1 })).toBeVisible();
    await expect(a.getByText("No teams yet — create one to share a round-robin or collective link")).toBeVisible();
    await a.getByLabel("Team name").fill("Sales");
    await expect(a.getByLabel("Team link")).toHaveValue("sales");
    await a.getByLabel("Team link").fill(teamSlug);
    await a.getByRole("button", { name: "Create team" }).click();
    await expect(a).toHaveURL(/\/dashboard\/teams\/team_[^/]+$/);
    await expect(a.getByRole("heading", { name: "Sales", level: 1 })).toBeVisible();
    await expect(a.getByRole("link", { name: `127.0.0.1:${new URL(a.url()).port}/team/${teamSlug}` })).toBeVisible();
    await expect(a.getByText(/No event types yet/)).toBeVisible();
  });
  const teamUrl = a.url();

  await test.step("Ada invites Grace by her username", async () => {
    await a.getByLabel("Username").fill("nobody-here-xyz");
    await a.getByRole("button", { name: "Send invitation" }).click();
    await expect(a.getByLabel("Username")).toHaveAccessibleDescription(/No one has this username/);
    await a.getByLabel("Username").fill(`@${grace.username}`);
    await a.getByRole("button", { name: "Send invitation" }).click();
    await expect(a.getByText("Grace Hopper is invited")).toBeVisible();
    const row = a.getByRole("listitem").filter({ hasText: `@${grace.username}` });
    await expect(row.getByText("Invited", { exact: true })).toBeVisible();
    await a.getByLabel("Username").fill(grace.username);
    await a.getByRole("button", { name: "Send invitation" }).click();
    await expect(a.getByLabel("Username")).toHaveAccessibleDescription(/already a member or invited/);
  });

  const g = await logIn(browser, grace);
  await test.step("Grace sees the invitation and accepts it", async () => {
    await g.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Teams" }).click();
    const invitations = g.getByRole("region", { name: "Pending invitations" });
    await expect(invitations.getByText("You are invited to join Sales")).toBeVisible();
    // Who sent it is said; the team's name is text, never a link to a page of the team's choosing.
    await expect(invitations.getByText(`Invited by Ada Lovelace (@${ada.username}).`)).toBeVisible();
    await expect(invitations.getByRole("link")).toHaveCount(0);
    await expect(g.getByText("No teams yet")).toBeVisible();
    await expectAccessible(g);
    await bothWidths(g, "teams-invitation");
    await invitations.getByRole("button", { name: "Accept the invitation to Sales" }).click();
    await expect(g.getByRole("region", { name: "Pending invitations" })).toHaveCount(0);
    await expect(g.getByRole("link", { name: "Sales", exact: true })).toBeVisible();
  });

  await test.step("a team link already taken is said at its field", async () => {
    await g.getByLabel("Team name").fill("Another sales");
    await g.getByLabel("Team link").fill(teamSlug);
    await g.getByRole("button", { name: "Create team" }).click();
    await expect(g.getByLabel("Team link")).toHaveAccessibleDescription(/Another team has this link/);
  });

  await test.step("Ada sees Grace active, and cannot leave as the only owner", async () => {
    await a.goto(teamUrl);
    const row = a.getByRole("listitem").filter({ hasText: `@${grace.username}` });
    await expect(row.getByText("Grace Hopper", { exact: true })).toBeVisible();
    await expect(row.getByText("Invited", { exact: true })).toHaveCount(0);
    await a.getByRole("button", { name: "Leave Sales" }).click();
    const dialog = a.getByRole("dialog", { name: "Leave Sales?" });
    await dialog.getByRole("button", { name: "Leave team" }).click();
    await expect(dialog.getByText(/only owner/)).toBeVisible();
    await dialog.getByRole("button", { name: "Stay" }).click();
  });

  await test.step("Ada creates a round-robin event type both host, and sees its link", async () => {
    await a.getByRole("link", { name: "New team event type" }).click();
    await expect(a.getByRole("heading", { name: "New team event type" })).toBeVisible();
    await a.getByLabel("Title").fill("Demo call");
    await expect(a.getByRole("textbox", { name: "Link" })).toHaveValue("demo-call");
    await expect(a.getByRole("radio", { name: /Round robin/ })).toBeChecked();
    await expect(a.getByRole("checkbox", { name: /Ada Lovelace/ })).toBeChecked();
    await expect(a.getByRole("checkbox", { name: /Grace Hopper/ })).toBeChecked();
    // No host: said at the list, nothing sent.
    await a.getByRole("checkbox", { name: /Ada Lovelace/ }).uncheck();
    await a.getByRole("checkbox", { name: /Grace Hopper/ }).uncheck();
    await a.getByRole("button", { name: "Create event type" }).click();
    await expect(a.getByText("Choose at least one host.")).toBeVisible();
    await bothWidths(a, "team-event-type-editor");
    await a.getByRole("checkbox", { name: /Ada Lovelace/ }).check();
    await a.getByRole("checkbox", { name: /Grace Hopper/ }).check();
    await expect(a.getByText("Choose at least one host.")).toHaveCount(0);
    await expectAccessible(a);
    await a.getByRole("button", { name: "Create event type" }).click();
    await expect(a).toHaveURL(teamUrl);
    const card = a.getByRole("listitem").filter({ hasText: "Demo call" });
    await expect(card.getByText(/30 min · Round robin/)).toBeVisible();
    await expect(card.getByText("Hosts: Ada Lovelace and Grace Hopper")).toBeVisible();
    await expect(card.getByRole("link", { name: new RegExp(`/team/${teamSlug}/demo-call$`) })).toBeVisible();
    await expect(card.getByRole("button", { name: new RegExp(`^Copy link: .*/team/${teamSlug}/demo-call$`) })).toBeVisible();
    await expect(card.getByRole("switch", { name: "Demo call: bookable" })).toHaveAttribute("aria-checked", "true");
    await expectAccessible(a);
    await bothWidths(a, "team-page");
  });

  await test.step("a collective booking shows in the bookings list with its team and the other host", async () => {
    const tokenOf = async (p: Person) => (await (await page.request.post("/api/v1/auth/login", { data: { email: p.email, password: p.password } })).json()).accessToken as string;
    const [adaAuth, graceAuth] = [{ authorization: `Bearer ${await tokenOf(ada)}` }, { authorization: `Bearer ${await tokenOf(grace)}` }];
    const hours = { minNoticeHours: 0, maxAdvanceDays: 60, weeklyRules: [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: "09:00", endTime: "17:00" })), dateOverrides: [] };
    for (const headers of [adaAuth, graceAuth]) expect((await page.request.put("/api/v1/me/availability", { headers, data: hours })).status()).toBe(200);
    const teamId = new URL(teamUrl).pathname.split("/").at(-1)!;
    const created = await page.request.post(`/api/v1/me/teams/${teamId}/event-types`, {
      headers: adaAuth,
      data: { slug: "planning", title: "Planning", durationMinutes: 60, schedulingType: "collective" },
    });
    expect(created.status()).toBe(201);
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const slots = (await (await page.request.get(`/api/v1/public/teams/${teamSlug}/planning/slots?from=${day(1)}&to=${day(8)}&timezone=Europe/Berlin`)).json()).slots as { startTime: string }[];
    const booked = await page.request.post(`/api/v1/public/teams/${teamSlug}/planning/bookings`, {
      headers: { "idempotency-key": randomUUID() },
      data: { startTime: slots[0]!.startTime, guestName: "Gita Guest", guestEmail: "gita@example.com", guestTimezone: "Europe/Berlin", customAnswers: {} },
    });
    expect(booked.status()).toBe(201);

    await a.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Bookings" }).click();
    const card = a.getByRole("listitem").filter({ hasText: "Gita Guest" });
    await expect(card.getByText("Planning with Gita Guest")).toBeVisible();
    await expect(card.getByText("Team: Sales")).toBeVisible();
    await expect(card.getByText("with Grace Hopper", { exact: true })).toBeVisible();
    await expectAccessible(a);
    await bothWidths(a, "bookings-team");
  });

  await test.step("Grace, a member, reads the team without the owners' controls", async () => {
    await g.goto(teamUrl);
    await expect(g.getByRole("listitem").filter({ hasText: "Demo call" }).getByText("Hosts: Ada Lovelace and Grace Hopper")).toBeVisible();
    await expect(g.getByRole("link", { name: "New team event type" })).toHaveCount(0);
    await expect(g.getByRole("button", { name: "Send invitation" })).toHaveCount(0);
    await expect(g.getByRole("heading", { name: "Team settings" })).toHaveCount(0);
    await expect(g.getByRole("button", { name: "Leave Sales" })).toBeVisible();
    await g.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Teams" }).click();
    await expectAccessible(g);
    await bothWidths(g, "teams");
  });
});
