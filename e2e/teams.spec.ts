import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { hasChromium } from "../playwright.config";
import { startSmtpServer, type SmtpSink } from "../tests/support/smtp";
import { createTeam, createTeamEventType, expect, openEveryDay, test } from "./support/fixtures";
import { expectAccessible } from "./support/page-checks";
import { start } from "./support/server";

// Issue 21's dashboard part, the way two people use it: Ada creates a team and invites Grace by
// her username; Grace sees the invitation on her Teams page and accepts; Ada sees her active and
// gives the team a round-robin event type they both host, whose link she can copy. Along the way:
// a taken team link is said at its field, and the last owner is told why she cannot leave. The
// Teams page and the team's page are checked with axe and photographed at 1280 and 390 px.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "Europe/Berlin", locale: "en-US" });

test("a team: create, invite, accept, and a round-robin event type both host", async ({ page, registerHost, signIn, shoot }) => {
  test.setTimeout(180_000);
  const ada = await registerHost({ fullName: "Ada Lovelace", timezone: "Europe/Berlin" });
  const grace = await registerHost({ fullName: "Grace Hopper", timezone: "Europe/Berlin" });
  const teamSlug = `sales-${randomUUID().slice(0, 6)}`;
  const a = await signIn(ada);

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
    await a.getByLabel("Username or email").fill("nobody-here-xyz");
    await a.getByRole("button", { name: "Send invitation" }).click();
    await expect(a.getByLabel("Username or email")).toHaveAccessibleDescription(/No one has this username/);
    await a.getByLabel("Username or email").fill(`@${grace.username}`);
    await a.getByRole("button", { name: "Send invitation" }).click();
    await expect(a.getByText("Grace Hopper is invited")).toBeVisible();
    const row = a.getByRole("listitem").filter({ hasText: `@${grace.username}` });
    await expect(row.getByText("Invited", { exact: true })).toBeVisible();
    await a.getByLabel("Username or email").fill(grace.username);
    await a.getByRole("button", { name: "Send invitation" }).click();
    await expect(a.getByLabel("Username or email")).toHaveAccessibleDescription(/already a member or invited/);
  });

  const g = await signIn(grace);
  await test.step("Grace sees the invitation and accepts it", async () => {
    await g.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Teams" }).click();
    const invitations = g.getByRole("region", { name: "Pending invitations" });
    await expect(invitations.getByText("You are invited to join Sales")).toBeVisible();
    // Who sent it is said; the team's name is text, never a link to a page of the team's choosing.
    await expect(invitations.getByText(`Invited by Ada Lovelace (@${ada.username}).`)).toBeVisible();
    await expect(invitations.getByRole("link")).toHaveCount(0);
    await expect(g.getByText("No teams yet")).toBeVisible();
    await expectAccessible(g);
    await shoot(g, "teams-invitation");
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
    await shoot(a, "team-event-type-editor");
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
    await shoot(a, "team-page");
  });

  await test.step("a collective booking shows in the bookings list with its team and the other host", async () => {
    for (const host of [ada, grace]) await openEveryDay(host, ["09:00", "17:00"]);
    const teamId = new URL(teamUrl).pathname.split("/").at(-1)!;
    await createTeamEventType(ada, teamId, { slug: "planning", title: "Planning", durationMinutes: 60, schedulingType: "collective" });
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
    await shoot(a, "bookings-team");
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
    await shoot(g, "teams");
  });
});

// Invitations by email (issue 37): Ada invites Hal, who has an account, by his address, and a
// friend who has none; she withdraws a third one she sent by mistake. Hal sees a banner on his
// dashboard's home and accepts; the friend signs up through the link in her email and is in the
// team. This server is the spec's own, mailing an SMTP server inside the test, so the links are
// read from the messages people would get.
test.describe("invitations by email", () => {
  let smtp: SmtpSink;
  let server: Awaited<ReturnType<typeof start>>;
  /** APP_URL defaults to http://localhost:{port}: the browser uses that name, as the mailed links do. */
  let base = "";
  test.beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await start({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-invites-")), SMTP_URL: smtp.url });
    base = server.url.replace("127.0.0.1", "localhost");
  });
  test.afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  // The invitation to an address; a host with an account also had their welcome at sign-up.
  const mailTo = async (address: string) => {
    const invitations = () => smtp.mails.filter((m) => m.envelopeTo.includes(address) && !/^Welcome, /.test(m.mail.subject ?? ""));
    await expect.poll(() => invitations().length, { timeout: 15_000 }).toBe(1);
    return invitations()[0]!.mail;
  };

  test("invite by email: a host answers from the dashboard's banner, a newcomer signs up through the link", async ({ registerHost, signIn, newPage, shoot }) => {
    test.setTimeout(180_000);
    const person = (fullName: string) => registerHost({ fullName, timezone: "Europe/Berlin", site: server.url });
    const [ada, hal] = [await person("Ada Lovelace"), await person("Hal Host")];
    const friend = `friend-${randomUUID().slice(0, 8)}@example.com`;
    const mistake = `mistake-${randomUUID().slice(0, 8)}@example.com`;
    const team = await createTeam(ada, { slug: `sales-${randomUUID().slice(0, 6)}`, name: "Sales" });
    const a = await signIn(ada, { site: base });

    await test.step("Ada invites three addresses, and withdraws the one sent by mistake", async () => {
      await a.goto(`${base}/dashboard/teams/${team.id}`);
      const field = a.getByLabel("Username or email");
      await expect(a.getByLabel("Language of the email")).toHaveCount(0);
      await field.fill(hal.email);
      await expect(a.getByLabel("Language of the email")).toHaveValue("en");
      await a.getByRole("button", { name: "Send invitation" }).click();
      await expect(a.getByText(`An invitation is on its way to ${hal.email}. It waits for an answer for 7 days.`)).toBeVisible();
      await field.fill(friend);
      await a.getByRole("button", { name: "Send invitation" }).click();
      await expect(a.getByText(`An invitation is on its way to ${friend}.`, { exact: false })).toBeVisible();
      await field.fill(mistake);
      await a.getByRole("button", { name: "Send invitation" }).click();
      const invited = a.getByRole("list", { name: "Invited by email" });
      await expect(invited.getByRole("listitem")).toHaveCount(3);
      // The same words for the host with an account and the address without one.
      for (const address of [hal.email, friend]) {
        const row = invited.getByRole("listitem").filter({ hasText: address });
        await expect(row.getByText("7 days left to answer")).toBeVisible();
        await expect(row.getByRole("button", { name: `Withdraw invitation: ${address}` })).toBeVisible();
      }
      // An address typed: the email's language is asked for too.
      await field.fill("someone-new@example.com");
      await a.getByLabel("Language of the email").selectOption("de");
      await expectAccessible(a);
      await shoot(a, "team-invite-by-email");
      // The same address twice is said at the field.
      await field.fill(friend.toUpperCase());
      await a.getByRole("button", { name: "Send invitation" }).click();
      await expect(field).toHaveAccessibleDescription(/already invited to the team/);

      await invited.getByRole("button", { name: `Withdraw invitation: ${mistake}` }).click();
      const dialog = a.getByRole("dialog", { name: `Withdraw the invitation to ${mistake}?` });
      await expect(dialog.getByText("The link in the email stops working")).toBeVisible();
      await dialog.getByRole("button", { name: "Withdraw" }).click();
      await expect(invited.getByRole("listitem")).toHaveCount(2);
      await expect(a.getByText(mistake)).toHaveCount(0);
    });

    await test.step("Hal's email leads to his invitations; his home shows a banner until he answers", async () => {
      const mail = await mailTo(hal.email);
      expect(mail.subject).toBe("Ada Lovelace invited you to join Sales");
      expect(mail.text).toContain(`${base}/dashboard/teams`);
      const h = await signIn(hal, { site: base });
      const banner = h.getByRole("region", { name: "A team invitation" });
      await expect(banner.getByText("Ada Lovelace invited you to join Sales. Accept or decline on your Teams page.")).toBeVisible();
      await expectAccessible(h);
      await shoot(h, "dashboard-invitation-banner");
      await banner.getByRole("link", { name: "See the invitation" }).click();
      const invitations = h.getByRole("region", { name: "Pending invitations" });
      await invitations.getByRole("button", { name: "Accept the invitation to Sales" }).click();
      await expect(h.getByRole("link", { name: "Sales", exact: true })).toBeVisible();
      await h.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Home" }).click();
      await expect(h.getByRole("heading", { name: "Hello, Hal Host" })).toBeVisible();
      await expect(h.getByRole("region", { name: /team invitation/i })).toHaveCount(0);
    });

    await test.step("the friend signs up through the link in her email and is in the team", async () => {
      const mail = await mailTo(friend);
      const link = /http:\/\/localhost:\d+\/register\?invitation=[A-Za-z0-9_-]+/.exec(mail.text ?? "")?.[0];
      expect(link, mail.text).toBeTruthy();
      const f = await newPage();
      await f.goto(link!);
      await expect(f.getByText("Ada Lovelace invited you to join the team Sales.")).toBeVisible();
      await expect(f.getByLabel("Email")).toHaveValue(friend);
      await expectAccessible(f);
      await shoot(f, "register-invitation");
      await f.getByLabel("Full name").fill("Fay Friend");
      await f.getByLabel("Password").fill("a good password 1");
      await f.getByRole("button", { name: "Create account" }).click();
      await expect(f).toHaveURL(/\/dashboard\/teams$/);
      await expect(f.getByRole("link", { name: "Sales", exact: true })).toBeVisible();

      // The link was spent: opened again, it says so in words.
      const again = await newPage();
      await again.goto(link!);
      await expect(again.getByText(/This invitation link no longer works/)).toBeVisible();
      await shoot(again, "register-invitation-spent");
      // So does the link of the invitation Ada withdrew (its email may have left before she did).
      const withdrawn = /http:\/\/localhost:\d+\/register\?invitation=[A-Za-z0-9_-]+/.exec((await mailTo(mistake)).text ?? "")?.[0];
      await again.goto(withdrawn!);
      await expect(again.getByText(/This invitation link no longer works/)).toBeVisible();
    });

    await test.step("Ada sees both in the team, and no invitation left", async () => {
      await a.reload();
      await expect(a.getByRole("list", { name: "Invited by email" })).toHaveCount(0);
      await expect(a.getByRole("listitem").filter({ hasText: `@${hal.username}` }).getByText("Hal Host", { exact: true })).toBeVisible();
      await expect(a.getByText("Fay Friend", { exact: true })).toBeVisible();
    });
  });
});
