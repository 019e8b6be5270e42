import { randomUUID } from "node:crypto";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { asHost, createEventType, createTeam, expect, openEveryDay, test, type Host } from "./support/fixtures";
import { expectAccessible } from "./support/page-checks";

// Group sessions and series on the dashboard (decisions §19): the host turns seats and recurrence
// on in the event-type editor (a team's type says why it cannot have one); the bookings page shows
// a start's seats as one row with its count, unfolds to each guest, cancels one, then all; and a
// series occurrence is cancelled with the ones after it.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ shotsDir: "test-results/dashboard-seats-series", hostFields: { fullName: "Sam Seats", timezone: "Europe/Berlin", prefix: "seats" } });

const ZONE = "Europe/Berlin";
const day = (n: number) => DateTime.now().setZone(ZONE).plus({ days: n }).toISODate()!;

type Slot = { startTime: string; seatsRemaining?: number };

async function slotsOn(host: Host, slug: string, n: number): Promise<Slot[]> {
  const res = await fetch(`${host.site}/api/v1/public/${host.username}/${slug}/slots?from=${day(n)}&to=${day(n)}&timezone=${ZONE}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { slots: Slot[] }).slots;
}

async function book(host: Host, slug: string, body: Record<string, unknown>) {
  const res = await fetch(`${host.site}/api/v1/public/${host.username}/${slug}/bookings`, {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
    body: JSON.stringify({ guestTimezone: ZONE, customAnswers: {}, ...body }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string; series: { occurrences: { id: string }[] } | null };
}

test("the host turns on seats and a series, sees a start's seats as one row, cancels one, all, and a series from one session on", async ({ page, host, shoot }) => {
  test.setTimeout(120_000);
  await openEveryDay(host, ["09:00", "17:00"]);
  const yoga = await createEventType(host, { slug: "yoga", title: "Yoga class", durationMinutes: 60 });
  const coaching = await createEventType(host, { slug: "coaching", title: "Coaching", durationMinutes: 45 });

  // Seats: the switch, then the max and whether guests see the seats left.
  await page.goto(`/dashboard/event-types/${yoga.id}`);
  const group = page.getByRole("region", { name: "Group session" });
  await group.getByLabel("Several guests per time").check();
  await group.getByLabel("Max guests per time").fill("1");
  await page.getByRole("button", { name: "Save changes" }).click();
  // The number is checked before anything is sent, at its field.
  await expect(group.getByText("Enter a whole number of guests from 2 to 1000.")).toBeVisible();
  await group.getByLabel("Max guests per time").fill("10");
  await expect(group.getByLabel("Show guests how many seats are left")).toBeChecked();
  await group.scrollIntoViewIfNeeded();
  await expectAccessible(page);
  await shoot(page, "editor-seats");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page).toHaveURL(/\/dashboard\/event-types$/);

  // A series: every week, up to 4 sessions.
  await page.goto(`/dashboard/event-types/${coaching.id}`);
  const recurring = page.getByRole("region", { name: "Recurring" });
  await recurring.getByLabel("Guests can book a series").check();
  await expect(recurring.getByLabel("Repeats every")).toHaveValue("1");
  await recurring.getByLabel("Up to (sessions)").fill("4");
  await expectAccessible(page);
  await shoot(page, "editor-recurring");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page).toHaveURL(/\/dashboard\/event-types$/);

  const stored = (await asHost(host, "GET", "/me/event-types", undefined, 200)) as { data: { id: string; seats: unknown; recurrence: unknown }[] };
  expect(stored.data.find((e) => e.id === yoga.id)).toMatchObject({ seats: { max: 10, showRemaining: true }, recurrence: null });
  expect(stored.data.find((e) => e.id === coaching.id)).toMatchObject({ seats: null, recurrence: { everyWeeks: 1, maxOccurrences: 4 } });

  // Three guests on one yoga start; a 4-session coaching series on another day.
  const start = (await slotsOn(host, "yoga", 2))[2]!;
  expect(start.seatsRemaining).toBe(10);
  for (const [guestName, guestEmail] of [["Ana Asana", "ana@example.com"], ["Ben Breath", "ben@example.com"], ["Cleo Core", "cleo@example.com"]]) {
    await book(host, "yoga", { startTime: start.startTime, guestName, guestEmail });
  }
  const first = (await slotsOn(host, "coaching", 3))[1]!;
  const series = await book(host, "coaching", { startTime: first.startTime, guestName: "Dora Drive", guestEmail: "dora@example.com", occurrences: 4 });
  expect(series.series?.occurrences).toHaveLength(4);

  await page.goto("/dashboard/bookings");
  const seats = page.locator("li", { hasText: "Yoga class · 3 of 10 seats" });
  await expect(seats).toHaveCount(1);
  // One row, not three: the guests are inside it.
  await expect(page.getByText("Ana Asana")).toHaveCount(0);
  await seats.getByRole("button", { name: "Guests (3)" }).click();
  for (const name of ["Ana Asana", "Ben Breath", "Cleo Core"]) await expect(seats.getByText(name, { exact: true })).toBeVisible();
  await expect(seats.getByText("Confirmed", { exact: true })).toHaveCount(3);
  await expect(page.getByText("Weekly · 2 of 4", { exact: true })).toBeVisible();
  await expectAccessible(page);
  await shoot(page, "bookings-grouped");

  // One guest's seat.
  await seats.getByRole("button", { name: "Cancel Ben Breath" }).click();
  const dialog = page.getByRole("dialog", { name: "Cancel the booking with Ben Breath?" });
  await dialog.getByRole("button", { name: "Cancel booking" }).click();
  await expect(dialog).toBeHidden();
  const fewer = page.locator("li", { hasText: "Yoga class · 2 of 10 seats" });
  await expect(fewer).toHaveCount(1);

  // All of them, after a confirm.
  await fewer.getByRole("button", { name: "Cancel all" }).click();
  const all = page.getByRole("dialog", { name: "Cancel all 2 seats of this session?" });
  await expect(all).toBeVisible();
  await all.getByRole("button", { name: "Cancel all" }).click();
  await expect(all).toBeHidden();
  await expect(page.locator("li", { hasText: "Yoga class ·" })).toHaveCount(0);

  // The series from its second session on.
  const second = page.locator("li", { has: page.getByText("Weekly · 2 of 4", { exact: true }) });
  await second.getByRole("button", { name: "Cancel booking" }).click();
  const scoped = page.getByRole("dialog", { name: "Cancel the booking with Dora Drive?" });
  await expect(scoped.getByLabel("Only this session")).toBeChecked();
  await scoped.getByLabel("This and following sessions").check();
  await expectAccessible(page);
  await shoot(page, "bookings-series-cancel");
  await scoped.getByRole("button", { name: "Cancel booking" }).click();
  await expect(scoped).toBeHidden();
  await expect(page.getByText("Weekly · 1 of 4", { exact: true })).toBeVisible();
  for (const n of [2, 3, 4]) await expect(page.getByText(`Weekly · ${n} of 4`, { exact: true })).toHaveCount(0);
  const after = (await asHost(host, "GET", "/me/bookings?status=cancelled&limit=100", undefined, 200)) as { data: { id: string }[] };
  const ids = series.series!.occurrences.map((o) => o.id);
  expect(after.data.map((b) => b.id)).toEqual(expect.arrayContaining(ids.slice(1)));
  expect(after.data.map((b) => b.id)).not.toContain(ids[0]);
});

test("a team's round robin cannot have seats, a collective cannot recur: the editor says why", async ({ page, host }) => {
  const team = await createTeam(host, { slug: `yoga-${randomUUID().slice(0, 6)}`, name: "Yoga team" });
  await page.goto(`/dashboard/teams/${team.id}/event-types/new`);
  const group = page.getByRole("region", { name: "Group session" });
  const recurring = page.getByRole("region", { name: "Recurring" });
  // Round robin to begin with.
  await expect(group.getByText("Round-robin event types cannot be group sessions")).toBeVisible();
  await expect(group.getByLabel("Several guests per time")).toHaveCount(0);
  await expect(recurring.getByLabel("Guests can book a series")).toBeVisible();
  await page.getByRole("radio", { name: /Collective/ }).check();
  await expect(recurring.getByText("Collective event types cannot recur")).toBeVisible();
  await expect(group.getByLabel("Several guests per time")).toBeVisible();
  await expectAccessible(page);
});
