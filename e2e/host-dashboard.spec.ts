import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { expectAccessible, expectNoSidewaysScroll } from "./support/page-checks";

// The host's side of issue 8, the way a person uses it: an anonymous visit goes to /login and
// back; the host creates an event type with a required question, sees the bookings guests made
// (in the host's zone, with their answers), moves one to another open time, cancels another with
// a reason, learns why a time is not bookable, adds a webhook, and is sent back to /login when the
// session ends. Every page is checked with axe and photographed at 1280 and 390 px.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "Europe/Berlin", locale: "en-US" });

const SHOTS = "e2e/screenshots";



/** At 1280 and 390 px: no sideways scroll; a picture of each when `name` is given. */
async function bothWidths(page: Page, name?: string) {
  for (const [width, suffix] of [[1280, ""], [390, "-390"]] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(150);
    await expectNoSidewaysScroll(page);
    if (name) await page.screenshot({ path: `${SHOTS}/${name}${suffix}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("an anonymous visit to the dashboard goes to /login, and back after logging in", async ({ page, request }) => {
  const username = `anon-${randomUUID().slice(0, 8)}`;
  await request.post("/api/v1/auth/register", { data: { email: `${username}@example.com`, password: "host password 1", fullName: "Anon Host", username, timezone: "UTC" } });
  await page.goto("/dashboard/bookings");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fdashboard%2Fbookings$/);
  await page.getByLabel("Email").fill(`${username}@example.com`);
  await page.getByLabel("Password").fill("host password 1");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/dashboard\/bookings$/);
  await expect(page.getByRole("heading", { name: "Bookings" })).toBeVisible();

  // The session ends (here: the cookie is replaced by one that no longer opens): back to /login, no error page.
  const cookies = await page.context().cookies();
  await page.context().clearCookies();
  await page.context().addCookies(cookies.map((c) => (c.name.endsWith("session-token") ? { ...c, value: "expired" } : c)));
  await page.getByRole("link", { name: "Event types", exact: true }).click();
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fdashboard%2Fevent-types$/);
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
});

test("a host runs event types, bookings and webhooks from the dashboard", async ({ page, request }) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const username = `dash-${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  const password = "dashboard password 1";
  expect((await request.post("/api/v1/auth/register", { data: { email, password, fullName: "Dana Host", username, timezone: "Europe/Berlin" } })).status()).toBe(201);
  const token = (await (await request.post("/api/v1/auth/login", { data: { email, password } })).json()).accessToken as string;
  const auth = { authorization: `Bearer ${token}` };
  // This host starts from nothing: the starter event type every account gets is removed, so the
  // page's empty state is seen too.
  for (const e of (await (await request.get("/api/v1/me/event-types", { headers: auth })).json()).data as { id: string }[]) {
    expect((await request.delete(`/api/v1/me/event-types/${e.id}`, { headers: auth })).status()).toBe(204);
  }
  // Open every day 09:00–17:00, no notice: predictable times to book and move.
  expect(
    (
      await request.put("/api/v1/me/availability", {
        headers: auth,
        data: { minNoticeHours: 0, maxAdvanceDays: 60, weeklyRules: [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: "09:00", endTime: "17:00" })), dateOverrides: [] },
      })
    ).status(),
  ).toBe(200);

  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { name: "Hello, Dana Host" })).toBeVisible();
  await expect(page.getByText(`/${username}`).first()).toBeVisible();
  await expectAccessible(page);

  await test.step("create an event type with a required question", async () => {
    await page.getByRole("link", { name: "Event types", exact: true }).click();
    await expect(page.getByText("You have no event types yet")).toBeVisible();
    await page.getByRole("link", { name: "New event type" }).first().click();
    await page.getByLabel("Title").fill("Strategy session");
    await expect(page.getByRole("textbox", { name: "Link" })).toHaveValue("strategy-session");
    await page.getByLabel("Description").fill("An hour on where you are going.");
    await page.getByLabel("Location").fill("Video call");
    await page.getByLabel("Duration (minutes)").fill("45");
    await page.getByLabel("Free time after (minutes)").fill("15");
    await page.getByRole("button", { name: "Add a question" }).click();
    await page.getByRole("textbox", { name: "Question 1" }).fill("What should we prepare?");
    await page.getByRole("checkbox", { name: "Required" }).check();
    await page.getByRole("button", { name: "Add a question" }).click();
    await page.getByRole("textbox", { name: "Question 2" }).fill("Company");
    await page.getByRole("button", { name: "Move question 2 up" }).click();
    await expect(page.getByRole("textbox", { name: "Question 1" })).toHaveValue("Company");
    await page.getByRole("button", { name: "Move question 1 down" }).click();
    await expectAccessible(page);
    await bothWidths(page, "event-type-editor");
    await page.getByRole("button", { name: "Create event type" }).click();
    await expect(page).toHaveURL(/\/dashboard\/event-types$/);
    await expect(page.getByRole("link", { name: "Strategy session", exact: true })).toBeVisible();
    await expect(page.getByRole("switch", { name: "Strategy session: bookable" })).toHaveAttribute("aria-checked", "true");
    await expectAccessible(page);
  });

  const et = (await (await request.get("/api/v1/me/event-types", { headers: auth })).json()).data[0];
  expect(et.customQuestions).toEqual([
    { id: "what-should-we-prepare", label: "What should we prepare?", required: true, type: "text" },
    { id: "company", label: "Company", required: false, type: "text" },
  ]);
  expect(et.bufferAfterMinutes).toBe(15);

  // Two guests book through the public API (their pages are the guest specs' business).
  const day = DateTime.now().setZone("Europe/Berlin").plus({ days: 2 }).toISODate()!;
  const slots = (await (await request.get(`/api/v1/public/${username}/strategy-session/slots?from=${day}&to=${day}&timezone=America/New_York`)).json()).slots as { startTime: string }[];
  const book = async (startTime: string, guestName: string) => {
    const res = await request.post(`/api/v1/public/${username}/strategy-session/bookings`, {
      headers: { "idempotency-key": randomUUID() },
      data: { startTime, guestName, guestEmail: `${randomUUID().slice(0, 8)}@example.com`, guestTimezone: "America/New_York", customAnswers: { "what-should-we-prepare": "The Q3 plan" } },
    });
    expect(res.status()).toBe(201);
    return (await res.json()) as { id: string; startTime: string };
  };
  const first = await book(slots[0]!.startTime, "Grace Guest");
  await book(slots[2]!.startTime, "Alan Guest");

  await test.step("see the bookings in the host's zone, move one, cancel another with a reason", async () => {
    await page.getByRole("link", { name: "Bookings" }).click();
    const grace = page.getByRole("listitem").filter({ hasText: "Grace Guest" });
    // 09:00 in Berlin, shown in Berlin (the guest booked from New York).
    await expect(grace.getByText(/9:00\s*–\s*9:45\sAM/)).toBeVisible();
    // The guest's answers are folded under the booking until asked for.
    await expect(grace.getByText("The Q3 plan")).toBeHidden();
    await grace.getByText("Answers (1)").click();
    await expect(grace.getByText("The Q3 plan")).toBeVisible();
    await expect(grace.getByText("What should we prepare?")).toBeVisible();
    await expect(grace.getByText("in Eastern Time (US & Canada)")).toBeVisible();
    await expectAccessible(page);
    await bothWidths(page, "bookings-list");

    await grace.getByRole("button", { name: "Reschedule" }).click();
    const picker = page.getByRole("region", { name: /New time for the booking with Grace Guest/ });
    // Tomorrow's 45-minute grid: 3:00 PM is one of its starts. (Not the first day shown: that is
    // today while today has times left, and by 3 PM in Berlin today's 3:00 PM is gone.)
    const tomorrow = DateTime.now().setZone("Europe/Berlin").plus({ days: 1 }).setLocale("en-US").toFormat("ccc, LLL d, yyyy");
    await picker.getByRole("group", { name: tomorrow }).getByRole("button", { name: /^3:00\sPM$/ }).click();
    await picker.getByRole("button", { name: /^Move to / }).click();
    await expect(grace.getByText(/3:00\s*–\s*3:45\sPM/)).toBeVisible();
    await expect(grace.getByText("Moved from")).toBeVisible();
    const moved = (await (await request.get("/api/v1/me/bookings?status=confirmed", { headers: auth })).json()).data.find((b: { id: string }) => b.id === first.id);
    expect(moved.previousStartTime).toBe(first.startTime);

    const alan = page.getByRole("listitem").filter({ hasText: "Alan Guest" });
    await alan.getByRole("button", { name: "Cancel booking" }).click();
    const dialog = page.getByRole("dialog", { name: "Cancel the booking with Alan Guest?" });
    await dialog.getByLabel("Reason (optional)").fill("I am travelling that day");
    await dialog.getByRole("button", { name: "Cancel booking" }).click();
    await expect(alan).toHaveCount(0);
    await page.getByRole("tab", { name: "Cancelled" }).click();
    await expect(page.getByRole("listitem").filter({ hasText: "Alan Guest" }).getByText("you: “I am travelling that day”")).toBeVisible();
  });

  await test.step("ask why a time is not bookable", async () => {
    await page.getByRole("link", { name: "Event types", exact: true }).click();
    await page.getByRole("link", { name: "Strategy session", exact: true }).click();
    await page.getByLabel("Date", { exact: true }).fill(day);
    await page.getByLabel("Time", { exact: true }).fill("08:00");
    await page.getByRole("button", { name: "Check" }).click();
    await expect(page.getByText("is not bookable")).toBeVisible();
    await expect(page.getByText(/does not fit inside your hours/)).toBeVisible();
    await page.getByLabel("Time", { exact: true }).fill("09:10");
    await page.getByRole("button", { name: "Check" }).click();
    await expect(page.getByText(/Start times are every 45 minutes/)).toBeVisible();
    await expectAccessible(page);
  });

  await test.step("delete says whether the event type is hidden or removed", async () => {
    await page.getByRole("link", { name: "Event types", exact: true }).click();
    await page.getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete “Strategy session”?" });
    await expect(dialog.getByText(/It has 2 bookings, so it will be/)).toBeVisible();
    await dialog.getByRole("button", { name: "Keep it" }).click();
  });

  await test.step("add a webhook: the secret is shown once, a test goes to the deliveries", async () => {
    await page.getByRole("link", { name: "Webhooks" }).click();
    await expect(page.getByText("No endpoints yet")).toBeVisible();
    await page.getByLabel("Endpoint URL").fill("http://127.0.0.1:9/hook");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByLabel("Endpoint URL")).toHaveAccessibleDescription(/private|public|loopback|address/i);
    await page.getByLabel("Endpoint URL").fill("https://hooks.example.com/booking");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByText("Copy the signing secret now")).toBeVisible();
    await expect(page.getByText(/^whsec_/)).toBeVisible();
    const card = page.getByRole("listitem").filter({ hasText: "https://hooks.example.com/booking" });
    await card.getByRole("button", { name: "Send a test event" }).click();
    await expect(card.getByText("Test event queued")).toBeVisible();
    await card.getByRole("button", { name: "Deliveries" }).click();
    await expect(card.getByRole("table")).toBeVisible({ timeout: 20_000 });
    await expect(card.getByRole("cell", { name: "webhook.test" })).toBeVisible();
    await expectAccessible(page);
    await bothWidths(page, "webhooks");
  });
});
