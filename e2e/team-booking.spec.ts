import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { expectAccessible, expectNoSidewaysScroll } from "./support/page-checks";

// A guest on a phone books a team's link (decisions §15): the team's page lists its event types;
// the booking page names the team and whom the guest may meet; a collective time is one every
// host has; the confirmation names the hosts; both hosts find the booking in their lists. A
// round-robin link's confirmation names the one host it went to. Pictures at 390 and 1280 px.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "Europe/Paris", locale: "en-US", viewport: { width: 390, height: 844 } });

const SHOTS = "e2e/screenshots";
const api = (path: string) => `/api/v1${path}`;

type Host = { username: string; headers: Record<string, string>; fullName: string };

async function host(request: APIRequestContext, fullName: string, timezone: string, date: DateTime, hours: [string, string]): Promise<Host> {
  const username = `tb-${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  const password = "team booking password";
  expect((await request.post(api("/auth/register"), { data: { email, password, fullName, username, timezone } })).status()).toBe(201);
  const token = (await (await request.post(api("/auth/login"), { data: { email, password } })).json()).accessToken as string;
  const headers = { authorization: `Bearer ${token}` };
  const availability = await request.put(api("/me/availability"), {
    headers,
    data: { minNoticeHours: 0, maxAdvanceDays: 60, weeklyRules: [], dateOverrides: [{ date: date.toISODate(), available: true, intervals: [{ startTime: hours[0], endTime: hours[1] }] }] },
  });
  expect(availability.status()).toBe(200);
  return { username, headers, fullName };
}

/** Ann in London (09:00–12:00) and Ben in New York (05:00–08:00, i.e. 10:00–13:00 London), a team of both. */
async function setUp(request: APIRequestContext) {
  let date = DateTime.now().setZone("Europe/London").startOf("day").plus({ days: 4 });
  while (date.weekday >= 6) date = date.plus({ days: 1 });
  const ann = await host(request, "Ann Archer", "Europe/London", date, ["09:00", "12:00"]);
  const ben = await host(request, "Ben Baker", "America/New_York", date, ["05:00", "08:00"]);
  const slug = `crew-${randomUUID().slice(0, 6)}`;
  const team = await (await request.post(api("/me/teams"), { headers: ann.headers, data: { slug, name: "Hiring Crew" } })).json();
  expect((await request.post(api(`/me/teams/${team.id}/members`), { headers: ann.headers, data: { username: ben.username } })).status()).toBe(201);
  expect((await request.post(api(`/me/teams/${team.id}/accept`), { headers: ben.headers })).status()).toBe(200);
  for (const [eventSlug, title, schedulingType] of [["panel", "Panel interview", "collective"], ["chat", "Quick chat", "round_robin"]]) {
    const made = await request.post(api(`/me/teams/${team.id}/event-types`), { headers: ann.headers, data: { slug: eventSlug, title, durationMinutes: 30, schedulingType, location: "Video call" } });
    expect(made.status()).toBe(201);
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

test("a guest on a phone books a team's collective link: only the common times, both hosts named, both see it", async ({ page, request }) => {
  const { ann, ben, slug, date } = await setUp(request);
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
    const [booking] = (await (await request.get(api("/me/bookings"), { headers: h.headers })).json()).data;
    expect(booking).toMatchObject({ guestName: "Gwen Guest", team: { slug, name: "Hiring Crew" } });
    expect(booking.hosts.map((x: { fullName: string }) => x.fullName)).toEqual(["Ann Archer", "Ben Baker"]);
  }
  // The time is gone for the next guest.
  await page.goto(`/team/${slug}/panel`);
  await expect(timesOf(page, date).first()).toBeVisible();
  expect(await timeTexts(page, date)).toEqual(["11:30 AM", "12:00 PM", "12:30 PM"]);
  expect(errors).toEqual([]);
});

test("a round-robin link: whom the guest may meet, and the confirmation names the one host it went to", async ({ page, request }) => {
  const { ann, ben, slug, date } = await setUp(request);
  await page.goto(`/team/${slug}/chat`);
  await expect(page.getByText("You meet Ann Archer or Ben Baker, whoever is free")).toBeVisible();
  // The first time is Ann's 09:00 London (10:00 Paris), before Ben's day starts: it can only go to Ann.
  await expect(timesOf(page, date).first()).toBeVisible();
  expect((await timeTexts(page, date))[0]).toBe("10:00 AM");
  const done = await bookFirstTime(page, date, "Rhea Guest");
  await expect(done).toContainText("Ann Archer");
  await expect(done).not.toContainText("Hiring Crew");
  const annList = (await (await request.get(api("/me/bookings"), { headers: ann.headers })).json()).data;
  const benList = (await (await request.get(api("/me/bookings"), { headers: ben.headers })).json()).data;
  expect(annList.map((b: { guestName: string }) => b.guestName)).toEqual(["Rhea Guest"]);
  expect(benList).toEqual([]);
});
