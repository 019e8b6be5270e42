import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { setUpHost } from "./support/host";

// The booking form when things go wrong, in a real browser whose zone is Paris (British English:
// a 24-hour clock): every failure is
// said in plain words at the right place, nothing the guest typed is lost, the time shown is the
// time booked, and keyboard and screen-reader users are taken along.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "Europe/Paris", locale: "en-GB" });

const api = (path: string) => `/api/v1${path}`;
const BOOKINGS = "**/api/v1/public/*/consult/bookings";
const HTML_502 = "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx/1.25.3</center></body></html>";
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The host's 10:00 (New York) on the set-up day, and a guest page open on it. */
async function openEvent(page: Page, request: APIRequestContext) {
  const host = await setUpHost(request);
  const first = DateTime.fromISO(`${host.date}T10:00`, { zone: "America/New_York" });
  await page.goto(`/${host.username}/consult`);
  await expect(page.getByRole("button", { name: "Timezone: Central European Time Change" })).toBeVisible();
  return { ...host, first };
}

/** A time of the day the calendar shows (the set-up host has one open day: it is chosen on load). */
function slotButton(page: Page, start: DateTime, zone = "Europe/Paris") {
  const local = start.setZone(zone);
  return page.getByRole("group", { name: local.toFormat("cccc, LLLL d") }).getByRole("button", { name: local.toFormat("HH:mm"), exact: true });
}

const fields = (page: Page) => ({ name: page.getByLabel("Your name"), email: page.getByLabel("Email"), topic: page.getByLabel("Topic") });

async function fill(page: Page, values: { name: string; email: string; topic: string }) {
  const f = fields(page);
  await f.name.fill(values.name);
  await f.email.fill(values.email);
  await f.topic.fill(values.topic);
}

async function expectKept(page: Page, values: { name: string; email: string; topic: string }) {
  const f = fields(page);
  await expect(f.name).toHaveValue(values.name);
  await expect(f.email).toHaveValue(values.email);
  await expect(f.topic).toHaveValue(values.topic);
}

/** A message in one of the page's alert regions. */
const alert = (page: Page, text: string | RegExp) => page.getByRole("alert").filter({ hasText: text });

/** Nothing a person should not read: Next's crash pages, error codes, ISO timestamps, HTML of a proxy. */
async function expectOnlyHumanText(page: Page) {
  await expect(page.getByText(/Application error|This page couldn.t load/)).toHaveCount(0);
  const text = await page.locator("body").innerText();
  expect(text).not.toMatch(/validation_error|slot_unavailable|rate_limited|network_error|bad_response|internal_error/);
  expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  expect(text).not.toMatch(/Bad Gateway|nginx|<\/?[a-z]+>/i);
}

async function bookingsOf(request: APIRequestContext, headers: Record<string, string>) {
  return (await (await request.get(api("/me/bookings"), { headers })).json()).data as { guestName: string; startTime: string; guestTimezone: string }[];
}

test.describe("a failed submit", () => {
  test("offline (the request never leaves): a plain message, no crash, every field still filled", async ({ page, request }) => {
    const { first } = await openEvent(page, request);
    await slotButton(page, first).click();
    const typed = { name: "Nora Network", email: `nora-${randomUUID()}@example.com`, topic: "Roaming" };
    await fill(page, typed);

    await page.route(BOOKINGS, (route) => route.abort("internetdisconnected"));
    await page.getByRole("button", { name: "Confirm booking" }).click();
    await expect(alert(page, "Check your internet connection and try again.")).toContainText("What you typed is still here.");
    await expectKept(page, typed);
    await expectOnlyHumanText(page);
  });

  test("a proxy's HTML 502 over a booking that was made: a plain message, the fields kept, and trying again books once", async ({ page, request }) => {
    const { first, headers } = await openEvent(page, request);
    await slotButton(page, first).click();
    const typed = { name: "Pia Proxy", email: `pia-${randomUUID()}@example.com`, topic: "Gateways" };
    await fill(page, typed);

    // The request reaches the service and books; the answer is lost in a proxy's error page.
    const keys: string[] = [];
    await page.route(BOOKINGS, async (route) => {
      keys.push(route.request().headers()["idempotency-key"]!);
      await route.fetch();
      await route.fulfill({ status: 502, contentType: "text/html", body: HTML_502 });
    });
    await page.getByRole("button", { name: "Confirm booking" }).click();
    await expect(alert(page, "The service is unavailable right now. Please try again in a moment.")).toBeVisible();
    await expectKept(page, typed);
    await expectOnlyHumanText(page);

    // Trying again sends the same Idempotency-Key: the first booking's answer, not a second booking.
    await page.unroute(BOOKINGS);
    const retry = page.waitForRequest((r) => r.url().endsWith("/consult/bookings") && r.method() === "POST");
    await page.getByRole("button", { name: "Confirm booking" }).click();
    expect((await retry).headers()["idempotency-key"]).toBe(keys[0]);
    await expect(page.getByRole("status")).toContainText("You are booked");
    expect(await bookingsOf(request, headers)).toEqual([expect.objectContaining({ guestName: "Pia Proxy" })]);
  });

  test("the browser names every mistake at once, the first focused; the server's own refusals come back the same way; nothing typed is lost", async ({ page, request }) => {
    const { first, headers } = await openEvent(page, request);
    await slotButton(page, first).click();
    // An address without a domain and a blank answer: named before anything is sent.
    const typed = { name: "Vera Valid", email: "vera@localhost", topic: "   " };
    await fill(page, typed);
    const f = fields(page);
    let sent = 0;
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().endsWith("/consult/bookings")) sent++;
    });

    await page.getByRole("button", { name: "Confirm booking" }).click();
    await expect(f.email).toHaveAttribute("aria-invalid", "true");
    await expect(f.email).toHaveAccessibleDescription("Must be an email address, like name@example.com");
    await expect(f.email).toBeFocused();
    await expect(f.topic).toHaveAttribute("aria-invalid", "true");
    await expect(f.topic).toHaveAccessibleDescription("Please answer this question");
    await expect(alert(page, "Please correct")).toHaveText("Please correct the fields marked above.");
    await expect(f.name).toHaveAttribute("aria-invalid", "false");
    expect(sent).toBe(0);
    await expectKept(page, typed);
    await expectOnlyHumanText(page);

    // Fixing a field clears its error at once, and only its own.
    const email = `vera-${randomUUID()}@example.com`;
    await f.email.fill(email);
    await expect(f.email).toHaveAttribute("aria-invalid", "false");
    await expect(f.topic).toHaveAttribute("aria-invalid", "true");
    await f.topic.fill("Taxes");
    await expect(f.topic).toHaveAttribute("aria-invalid", "false");

    // What only the server can say comes back at its fields, all at once.
    await page.route(BOOKINGS, (route) =>
      route.fulfill({
        status: 400,
        contentType: "application/json",
        body: JSON.stringify({
          error: "validation_error",
          message: "The request is invalid",
          details: { issues: [{ path: "guestName", message: "Must not be empty" }, { path: "customAnswers.topic", message: "At most 2000 characters" }] },
        }),
      }),
    );
    await page.getByRole("button", { name: "Confirm booking" }).click();
    await expect(f.name).toBeFocused();
    await expect(f.name).toHaveAccessibleDescription("Must not be empty");
    await expect(f.topic).toHaveAccessibleDescription("At most 2000 characters");
    await expect(alert(page, "Please correct")).toHaveText("Please correct the fields marked above.");
    await expectKept(page, { ...typed, email, topic: "Taxes" });

    await page.unroute(BOOKINGS);
    await page.getByRole("button", { name: "Confirm booking" }).click();
    await expect(page.getByRole("status")).toContainText("You are booked");
    expect(await bookingsOf(request, headers)).toEqual([expect.objectContaining({ guestName: "Vera Valid" })]);
  });

  test("a 429 says how long to wait and keeps the form", async ({ page, request }) => {
    const { first } = await openEvent(page, request);
    await slotButton(page, first).click();
    const typed = { name: "Rita Rate", email: `rita-${randomUUID()}@example.com`, topic: "Limits" };
    await fill(page, typed);
    await page.route(BOOKINGS, (route) =>
      route.fulfill({
        status: 429,
        // What the guest-email limit answers: the whole hour, never when the email's oldest booking leaves it.
        headers: { "retry-after": "3600" },
        contentType: "application/json",
        body: JSON.stringify({ error: "rate_limited", message: "Too many bookings for this email address: at most 5 an hour", details: { retryAfterSeconds: 3600 } }),
      }),
    );
    await page.getByRole("button", { name: "Confirm booking" }).click();
    await expect(alert(page, "Too many bookings")).toHaveText("Too many bookings for this email address: at most 5 an hour. Please try again in about 1 hour.");
    await expectKept(page, typed);
    await expectOnlyHumanText(page);
  });

  test("a 409 (the time was just taken) says so, shows fresh times, and the details come back with the next time", async ({ page, request }) => {
    const { first, username, headers } = await openEvent(page, request);
    await slotButton(page, first).click();
    const typed = { name: "Cora Conflict", email: `cora-${randomUUID()}@example.com`, topic: "Races" };
    await fill(page, typed);

    // Someone else books that time while this guest is typing.
    const other = await request.post(api(`/public/${username}/consult/bookings`), {
      headers: { "idempotency-key": randomUUID() },
      data: { startTime: first.toUTC().toISO({ suppressMilliseconds: true }), guestName: "Quick Guest", guestEmail: `quick-${randomUUID()}@example.com`, guestTimezone: "UTC", customAnswers: { topic: "Speed" } },
    });
    expect(other.status()).toBe(201);

    await page.getByRole("button", { name: "Confirm booking" }).click();
    const notice = page.getByText("Sorry, that time was just booked by someone else.");
    await expect(notice).toBeVisible();
    await expect(notice).toBeFocused();
    await expect(slotButton(page, first)).toHaveCount(0);
    const next = first.plus({ minutes: 30 });
    await expect(slotButton(page, next)).toBeVisible();
    await expectOnlyHumanText(page);

    await slotButton(page, next).click();
    await expectKept(page, typed);
    await expect(fields(page).name).toBeFocused();
    await page.getByRole("button", { name: "Confirm booking" }).click();
    await expect(page.getByRole("status")).toContainText("You are booked");
    const mine = (await bookingsOf(request, headers)).find((b) => b.guestName === "Cora Conflict");
    expect(mine?.startTime).toBe(next.toUTC().toISO({ suppressMilliseconds: true }));
  });
});

test("switching the timezone after choosing a time rewrites the time in the new zone, and that zone is what is booked", async ({ page, request }) => {
  const { first, headers } = await openEvent(page, request);
  const end = first.plus({ minutes: 30 });
  const names: Record<string, string> = { "Europe/Paris": "Central European Time", "Asia/Tokyo": "Japan Standard Time" };
  const label = (zone: string) => `${first.setZone(zone).toFormat("cccc, LLLL d, yyyy")} · ${first.setZone(zone).toFormat("HH:mm")}–${end.setZone(zone).toFormat("HH:mm")} (${names[zone]})`;

  await slotButton(page, first).click();
  // The first line of the form: the chosen time, as the guest reads it.
  const chosen = page.locator("form p").first();
  await expect(chosen).toHaveText(label("Europe/Paris"));

  // The zone line stays above the form: tapped, its picker opens.
  await page.getByRole("button", { name: "Timezone: Central European Time Change" }).click();
  const zone = page.getByRole("combobox", { name: "Timezone" });
  await zone.fill("Tokyo");
  await zone.press("Enter");
  await expect(chosen).toHaveText(label("Asia/Tokyo"));
  await expect(page.getByRole("form")).toHaveAccessibleName(label("Asia/Tokyo"));
  await fill(page, { name: "Taro Zone", email: `taro-${randomUUID()}@example.com`, topic: "Jet lag" });

  const sent = page.waitForRequest((r) => r.url().endsWith("/consult/bookings") && r.method() === "POST");
  await page.getByRole("button", { name: "Confirm booking" }).click();
  const body = (await sent).postDataJSON();
  expect(body).toMatchObject({ guestTimezone: "Asia/Tokyo", startTime: first.toUTC().toISO({ suppressMilliseconds: true }) });
  await expect(page.getByRole("status")).toContainText("Japan Standard Time");
  expect(await bookingsOf(request, headers)).toEqual([expect.objectContaining({ guestTimezone: "Asia/Tokyo", startTime: body.startTime })]);
});

test("keyboard: choosing a time moves the focus to the first field, Back returns it to that time", async ({ page, request }) => {
  const { first } = await openEvent(page, request);
  const button = slotButton(page, first);
  await button.focus();
  await page.keyboard.press("Enter");
  await expect(fields(page).name).toBeFocused();
  await page.keyboard.type("Kim Keys");
  await page.getByRole("button", { name: "Back" }).click();
  await expect(button).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(fields(page).name).toBeFocused();
  await expect(fields(page).name).toHaveValue("Kim Keys");
});

test("on an origin without crypto.randomUUID (plain http on a LAN address) the guest books, and the confirmation lands in the live region that was already there", async ({ page, request }) => {
  // What a page at http://192.168.x.y:3000 has: getRandomValues but no randomUUID (secure contexts only).
  await page.addInitScript(() => {
    delete (Crypto.prototype as { randomUUID?: unknown }).randomUUID;
  });
  const { first } = await openEvent(page, request);
  expect(await page.evaluate(() => typeof crypto.randomUUID)).toBe("undefined");

  const region = page.getByRole("status");
  await expect(region).toHaveAttribute("aria-live", "polite");
  await expect(region).toHaveAttribute("role", "status");
  await expect(region).toBeEmpty();
  const before = await region.elementHandle();

  await slotButton(page, first).click();
  await fill(page, { name: "Lan Guest", email: `lan-${randomUUID()}@example.com`, topic: "Home network" });
  const sent = page.waitForRequest((r) => r.url().endsWith("/consult/bookings") && r.method() === "POST");
  await page.getByRole("button", { name: "Confirm booking" }).click();
  expect((await sent).headers()["idempotency-key"]).toMatch(UUID_V4);

  await expect(region).toContainText("You are booked");
  // The very node that was empty before now holds the confirmation: it was not mounted with it.
  expect(await before!.evaluate((el) => el.isConnected && el.textContent)).toContain("You are booked");
  await expect(page.getByRole("heading", { name: "You are booked" })).toBeFocused();
  await expectOnlyHumanText(page);
});

test("at 390 px the open form with an error fits the screen (no sideways scroll)", async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { first } = await openEvent(page, request);
  await slotButton(page, first).click();
  await fill(page, { name: "Sam Small", email: "sam@localhost", topic: "Phones" });
  await page.getByRole("button", { name: "Confirm booking" }).click();
  await expect(fields(page).email).toHaveAttribute("aria-invalid", "true");
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
});

test("a page that fails to render shows a plain error page with Try again, never Next's own", async ({ page, request }) => {
  const { username } = await setUpHost(request);
  // A fault injected into the browser: reading a date in a zone throws while the booking widget renders.
  await page.addInitScript(() => {
    Intl.DateTimeFormat.prototype.formatToParts = () => {
      throw new Error("zone data unavailable");
    };
  });
  await page.goto(`/${username}/consult`);
  await expect(page.getByRole("heading", { name: "Something went wrong" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Try again" })).toBeEnabled();
  await expectOnlyHumanText(page);
  await expect(page.getByText("zone data unavailable")).toHaveCount(0);
});
