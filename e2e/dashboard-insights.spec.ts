import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DateTime } from "luxon";
import postgres from "postgres";
import type { Page } from "@playwright/test";
import { hasChromium } from "../playwright.config";
import { createScratchDatabase } from "../tests/support/scratch-database";
import { asHost, createEventType, createTeam, createTeamEventType, expect, openEveryDay, test, type Host } from "./support/fixtures";
import { expectAccessible } from "./support/page-checks";
import { start } from "./support/server";

// The Insights page (decisions §22) as a host reads it: bookings made through the public API
// (one cancelled, one moved, a team's), a past one written to the table and marked a no-show; the
// totals and a table's figures equal to what was seeded; a quick range, an event type and custom
// dates change the address and the figures; the CSV holds the seeded rows; axe-clean with every
// table open, at a desktop's and a phone's width. Its own `npm start` on a scratch PostgreSQL
// (the API books no past).

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium; skipping browser tests");
test.skip(!process.env.TEST_DATABASE_URL, "TEST_DATABASE_URL is not set: this spec writes a past booking to its own PostgreSQL database");
test.use({ timezoneId: "Europe/Berlin", locale: "en-US", shotsDir: "/tmp/shots-insights" });

const ZONE = "Europe/Berlin";

/** The figures of a table under its caption: each row's cells as text, the header row first. */
async function tableRows(page: Page, caption: string): Promise<string[][]> {
  const table = page.getByRole("table", { name: caption });
  return table.locator("tr").evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll("th, td")].map((c) => (c.textContent ?? "").trim())));
}

/** The six totals' figures, by their test ids. */
async function totals(page: Page): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const key of ["bookings", "confirmed", "pending", "cancelled", "rescheduled", "noShow"]) {
    out[key] = Number((await page.getByTestId(`total-${key}`).locator("span").first().textContent())!.trim());
  }
  return out;
}

async function seed(host: Host, server: { url: string }, sql: postgres.Sql) {
  const day = (n: number) => DateTime.now().setZone(ZONE).plus({ days: n }).toISODate()!;
  await openEveryDay(host, ["09:00", "17:00"]);
  const intro = await createEventType(host, { slug: "intro", title: "Intro call", durationMinutes: 30 });
  const coaching = await createEventType(host, { slug: "coaching", title: "Coaching session", durationMinutes: 60 });
  const teamSlug = `sales-${randomUUID().slice(0, 6)}`;
  const team = await createTeam(host, { slug: teamSlug, name: "Sales" });
  await createTeamEventType(host, team.id, { slug: "demo", title: "Team demo", durationMinutes: 30, schedulingType: "round_robin" });

  const slotsOf = async (page: string, n: number) => {
    const res = await fetch(`${server.url}/api/v1/public/${page}/slots?from=${day(n)}&to=${day(n)}&timezone=${ZONE}`);
    return ((await res.json()).slots as { startTime: string }[]).map((s) => s.startTime);
  };
  const book = async (page: string, startTime: string, guestName: string) => {
    const res = await fetch(`${server.url}/api/v1/public/${page}/bookings`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
      body: JSON.stringify({ startTime, guestName, guestEmail: `${guestName.split(" ")[0]!.toLowerCase()}-${host.username}@example.com`, guestTimezone: ZONE, customAnswers: {} }),
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body as { id: string };
  };
  const introDay1 = await slotsOf(`${host.username}/intro`, 1);
  await book(`${host.username}/intro`, introDay1[0]!, "Grace Hopper");
  await book(`${host.username}/intro`, introDay1[2]!, "Alan Turing");
  const katherine = await book(`${host.username}/intro`, (await slotsOf(`${host.username}/intro`, 2))[0]!, "Katherine Johnson");
  await asHost(host, "POST", `/me/bookings/${katherine.id}/cancel`, { reason: "Away that day" }, 200);
  const linus = await book(`${host.username}/coaching`, (await slotsOf(`${host.username}/coaching`, 3))[0]!, "Linus Torvalds");
  await asHost(host, "POST", `/me/bookings/${linus.id}/reschedule`, { startTime: (await slotsOf(`${host.username}/coaching`, 4))[0]! }, 200);
  await book(`teams/${teamSlug}/demo`, (await slotsOf(`teams/${teamSlug}/demo`, 5))[0]!, "Tess Team");

  // Yesterday at 10:00, booked three days before it (written to the table; its host row follows by trigger), then marked a no-show.
  const pastStart = DateTime.fromISO(`${day(-1)}T10:00`, { zone: ZONE });
  const pastId = `bkg_${randomUUID()}`;
  await sql`insert into bookings (id, host_id, event_type_id, status, start_time, end_time, blocked_start, blocked_end, guest_name, guest_email, guest_timezone, cancel_token_hash, created_at)
    select ${pastId}, u.id, ${intro.id}, 'confirmed', ${pastStart.toISO()}, ${pastStart.plus({ minutes: 30 }).toISO()}, ${pastStart.toISO()}, ${pastStart.plus({ minutes: 30 }).toISO()},
      'Pat Past', ${`pat-${host.username}@example.com`}, ${ZONE}, ${createHash("sha256").update(randomUUID()).digest("hex")}, ${pastStart.minus({ days: 3 }).toISO()}
    from users u where u.username = ${host.username}`;
  await asHost(host, "POST", `/me/bookings/${pastId}/no-show`, { noShow: true }, 200);
  return { day, coaching };
}

test("a host reads their insights: totals, charts as tables, filters in the address, the CSV", async ({ page, registerHost, signIn, shoot }) => {
  test.setTimeout(240_000);
  const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
  const server = await start({
    DATABASE_URL: scratch.url,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "dashboard-insights-")),
    JWT_SECRET: randomBytes(32).toString("hex"),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
  });
  const sql = postgres(scratch.url, { max: 1, onnotice: () => {} });
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));
  try {
    const host = await registerHost({ fullName: "Ada Host", timezone: ZONE, prefix: "ins", site: server.url });
    const { day } = await seed(host, server, sql);
    // APP_URL defaults to http://localhost:{port}: the browser uses that name (the session's cookie is its).
    const site = server.url.replace("127.0.0.1", "localhost");
    await signIn(host, { page, site });
    const view = `from=${day(-7)}&to=${day(14)}`;

    await test.step("the nav leads to Insights, the last 30 days by default", async () => {
      await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Insights" }).click();
      await expect(page.getByRole("heading", { name: "Insights", level: 1 })).toBeVisible();
      await expect(page).toHaveURL(/\/dashboard\/insights$/);
      await expect(page.getByRole("link", { name: "Last 30 days" })).toHaveAttribute("aria-current", "true");
      // The last 30 days up to today hold yesterday's no-show only.
      expect((await totals(page)).bookings).toBe(1);
    });

    await test.step("the totals and the tables equal what was seeded", async () => {
      await page.goto(`${site}/dashboard/insights?${view}`);
      expect(await totals(page)).toEqual({ bookings: 6, confirmed: 5, pending: 0, cancelled: 1, rescheduled: 1, noShow: 1 });
      await expect(page.getByText("Guests book a median of")).toBeVisible();
      for (const summary of await page.getByText("Show as a table").all()) await summary.click();
      expect(await tableRows(page, "Bookings per event type")).toEqual([
        ["Event type", "Bookings", "Cancelled", "No-shows"],
        ["Intro call", "4", "1", "1"],
        ["Coaching session", "1", "0", "0"],
        ["Team demo", "1", "0", "0"],
      ]);
      expect(await tableRows(page, "Bookings per host of your team event types, not cancelled")).toEqual([
        ["Host", "Bookings"],
        ["Ada Host", "1"],
      ]);
      const perDay = await tableRows(page, "Bookings per day (days without bookings left out)");
      expect(perDay.slice(1).reduce((sum, row) => sum + Number(row[1]), 0)).toBe(6);
      // The heat map counts what was not cancelled: five bookings.
      const cells = await page.getByRole("table", { name: /^Bookings by weekday and starting hour/ }).locator("td").allTextContents();
      expect(cells.reduce((sum, c) => sum + (Number(c) || 0), 0)).toBe(5);
      await expect(page.locator("main")).not.toContainText(/\d{4}-\d\d-\d\d/);
      // Away from the charts: a tooltip under the pointer would hide a bar in the pictures.
      await page.mouse.move(0, 0);
      await expectAccessible(page);
      await shoot(page, "insights");
      await page.setViewportSize({ width: 390, height: 900 });
      await expectAccessible(page);
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    await test.step("an event type narrows the figures, in the address", async () => {
      await page.getByLabel("Event type", { exact: true }).selectOption({ label: "Coaching session" });
      await expect(page).toHaveURL(/eventTypeId=/);
      await expect(page.getByTestId("total-bookings")).toContainText("1 booking");
      await expect(page.getByTestId("total-rescheduled")).toContainText("1 rescheduled");
      await expect(page.getByRole("link", { name: "Download CSV" })).toHaveAttribute("href", /eventTypeId=/);
      await page.reload();
      await expect(page.getByLabel("Event type", { exact: true })).toHaveValue(/.+/);
      await expect(page.getByTestId("total-bookings")).toContainText("1 booking");
    });

    await test.step("a quick range and custom dates; an empty range says so in words", async () => {
      await page.getByLabel("Event type", { exact: true }).selectOption("");
      await expect(page).not.toHaveURL(/eventTypeId=/);
      await page.getByRole("link", { name: "Last 7 days" }).click();
      await expect(page).toHaveURL(new RegExp(`from=${day(-6)}&to=${day(0)}`));
      await expect(page.getByTestId("total-noShow")).toContainText("1 no-show");
      await page.getByLabel("From", { exact: true }).fill("2020-01-01");
      await page.getByLabel("To", { exact: true }).fill("2020-01-31");
      await page.getByRole("button", { name: "Show" }).click();
      await expect(page).toHaveURL(/from=2020-01-01&to=2020-01-31/);
      await expect(page.getByRole("heading", { name: "No bookings start in Jan 1 – 31, 2020" })).toBeVisible();
      await expect(page.getByRole("link", { name: `${site}/${host.username}` })).toBeVisible();
      await expectAccessible(page);
      await shoot(page, "insights-empty");
    });

    await test.step("the CSV holds the seeded bookings, one row each", async () => {
      await page.goto(`${site}/dashboard/insights?${view}`);
      const downloading = page.waitForEvent("download");
      await page.getByRole("link", { name: "Download CSV" }).click();
      const download = await downloading;
      const csv = readFileSync((await download.path())!, "utf8");
      const lines = csv.split(/\r?\n/).filter((l) => l.trim() !== "");
      expect(lines).toHaveLength(7);
      for (const guest of ["Grace Hopper", "Alan Turing", "Katherine Johnson", "Linus Torvalds", "Tess Team", "Pat Past"]) expect(csv).toContain(guest);
    });

    expect(problems.filter((p) => /#418|#423|#425|hydrat|did not match/i.test(p))).toEqual([]);
  } finally {
    await sql.end();
    await server.stop();
    await scratch.drop();
  }
});
