import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { createTeam, createTeamEventType, expect, openDay, test, type Host, type HostFields } from "./support/fixtures";
import { expectAccessible, expectNoSidewaysScroll } from "./support/page-checks";

// A guest on a phone books a team's link (decisions §15): the team's page lists its event types;
// the booking page names the team and whom the guest may meet; a collective time is one every
// host has; the confirmation names the hosts; both hosts find the booking in their lists. A
// round-robin link's confirmation names the one host it went to. Pictures at 390 and 1280 px.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "Europe/Paris", locale: "en-US", viewport: { width: 390, height: 844 } });

const SHOTS = "e2e/screenshots";
const api = (path: string) => `/api/v1${path}`;

/** Ann in London (09:00–12:00) and Ben in New York (05:00–08:00, i.e. 10:00–13:00 London), a team of both. */
async function setUp(registerHost: (fields: HostFields) => Promise<Host>) {
  let date = DateTime.now().setZone("Europe/London").startOf("day").plus({ days: 4 });
  while (date.weekday >= 6) date = date.plus({ days: 1 });
  const ann = await registerHost({ fullName: "Ann Archer", timezone: "Europe/London", prefix: "tb" });
  await openDay(ann, date.toISODate()!, ["09:00", "12:00"]);
  const ben = await registerHost({ fullName: "Ben Baker", timezone: "America/New_York", prefix: "tb" });
  await openDay(ben, date.toISODate()!, ["05:00", "08:00"]);
  const slug = `crew-${randomUUID().slice(0, 6)}`;
  const team = await createTeam(ann, { slug, name: "Hiring Crew" }, [ben]);
  for (const [eventSlug, title, schedulingType] of [["panel", "Panel interview", "collective"], ["chat", "Quick chat", "round_robin"]]) {
    await createTeamEventType(ann, team.id, { slug: eventSlug, title, durationMinutes: 30, schedulingType, location: "Video call" });
  }
  return { ann, ben, slug, date };
}

const timesOf = (page: Page, d: DateTime) => page.getByRole("group", { name: d.toFormat("cccc, LLLL d") }).getByRole("button");
/** The times listed for a day as read (ICU may put a narrow no-break space before AM/PM). */
const timeTexts = async (page: Page, d: DateTime) => (await timesOf(page, d).allInnerTexts()).map((t) => t.replace(/[\u202f\u2009]/g, " ").trim());

async function bookFirstTime(page: Page, date: DateTime, guestName: string) {
  const first = timesOf(page, date).first();
  await expect(first).toBeVisible();
  await first.click();
  await page.getByLabel("Your name").fill(guestName);
  await page.getByLabel("Email").fill(`${guestName.split(" ")[0]!.toLowerCase()}-${randomUUID().slice(0, 6)}@example.com`);
  await page.getByRole("button", { name: "Confirm booking" }).click();
  await expect(page.getByRole("heading", { name: "You are booked" })).toBeFocused();
  return page.getByRole("status");
}

test("a guest on a phone books a team's collective link: only the common times, both hosts named, both see it", async ({ page, request, registerHost }) => {
  const { ann, ben, slug, date } = await setUp(registerHost);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));

  await page.goto(`/team/${slug}`);
  await expect(page.getByRole("heading", { level: 1, name: "Hiring Crew" })).toBeVisible();
  await expect(page.getByRole("link", { name: /Panel interview/ })).toBeVisible();
  await page.getByRole("link", { name: /Panel interview/ }).click();
  await expect(page).toHaveURL(new RegExp(`/team/${slug}/panel$`));
  await expect(page.getByRole("heading", { level: 1, name: "Panel interview" })).toBeVisible();
  await expect(page.getByText("Everyone attends: Ann Archer and Ben Baker")).toBeVisible();

  // Paris is an hour ahead of London: Ann's 09:00–12:00 and Ben's 10:00–13:00 (London) meet at 11:00–13:00 Paris.
  await expect(timesOf(page, date).first()).toBeVisible();
  expect(await timeTexts(page, date)).toEqual(["11:00 AM", "11:30 AM", "12:00 PM", "12:30 PM"]);
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/team-booking-page-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${SHOTS}/team-booking-page.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });

  const done = await bookFirstTime(page, date, "Gwen Guest");
  await expect(done).toContainText("Panel interview");
  await expect(done).toContainText("Ann Archer and Ben Baker");
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${SHOTS}/team-booking-confirmation-390.png`, fullPage: true });

  for (const h of [ann, ben]) {
    const [booking] = (await (await request.get(api("/me/bookings"), { headers: h.auth })).json()).data;
    expect(booking).toMatchObject({ guestName: "Gwen Guest", team: { slug, name: "Hiring Crew" } });
    expect(booking.hosts.map((x: { fullName: string }) => x.fullName)).toEqual(["Ann Archer", "Ben Baker"]);
  }
  // The time is gone for the next guest.
  await page.goto(`/team/${slug}/panel`);
  await expect(timesOf(page, date).first()).toBeVisible();
  expect(await timeTexts(page, date)).toEqual(["11:30 AM", "12:00 PM", "12:30 PM"]);
  expect(errors).toEqual([]);
});

test("a round-robin link: whom the guest may meet, and the confirmation names the one host it went to", async ({ page, request, registerHost }) => {
  const { ann, ben, slug, date } = await setUp(registerHost);
  await page.goto(`/team/${slug}/chat`);
  await expect(page.getByText("You meet Ann Archer or Ben Baker, whoever is free")).toBeVisible();
  // The first time is Ann's 09:00 London (10:00 Paris), before Ben's day starts: it can only go to Ann.
  await expect(timesOf(page, date).first()).toBeVisible();
  expect((await timeTexts(page, date))[0]).toBe("10:00 AM");
  const done = await bookFirstTime(page, date, "Rhea Guest");
  await expect(done).toContainText("Ann Archer");
  await expect(done).not.toContainText("Hiring Crew");
  const annList = (await (await request.get(api("/me/bookings"), { headers: ann.auth })).json()).data;
  const benList = (await (await request.get(api("/me/bookings"), { headers: ben.auth })).json()).data;
  expect(annList.map((b: { guestName: string }) => b.guestName)).toEqual(["Rhea Guest"]);
  expect(benList).toEqual([]);
});
