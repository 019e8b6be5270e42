import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Browser } from "@playwright/test";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { post, start } from "./support/server";

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");

// One build runs anywhere: APP_URL (like every setting) is read when the server starts, not when
// it is built. The same `npm run build` started twice, once as http://127.0.0.1:<a> and once as
// http://localhost:<b>, gives each its own addresses in its pages, its emails, the host's feed URL
// and the OAuth redirect URI; never the other's, never the build's default (localhost:3000).

type Instance = Awaited<ReturnType<typeof start>> & { appUrl: string; dataDir: string };

/** Every http(s) address in a text that names this machine (127.0.0.1 or localhost), whatever its port. */
const localUrls = (text: string) => [...text.matchAll(/https?:\/\/(?:127\.0\.0\.1|localhost)(?::\d+)?[^\s"'<>)\]]*/g)].map((m) => m[0]);
const origins = (urls: string[]) => [...new Set(urls.map((u) => new URL(u).origin))];

/** A mail as written to DATA_DIR/mail, its quoted-printable lines joined and decoded. */
const decodeMail = (raw: string) => raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

async function checkInstance(browser: Browser, me: Instance, other: Instance) {
  const username = `rt${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  const password = "runtime config 1";
  expect((await post(`${me.url}/api/v1/auth/register`, { email, password, fullName: "Rita Runtime", username, timezone: "UTC" })).status).toBe(201);

  // A page: the dashboard, opened at this instance's own address, shows the host's public link.
  const context = await browser.newContext({ baseURL: me.appUrl });
  try {
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(`${me.appUrl}/dashboard`);
    await expect(page.getByRole("link", { name: `${me.appUrl}/${username}`, exact: true })).toHaveAttribute("href", `${me.appUrl}/${username}`);
    expect(origins(localUrls(await page.content()))).toEqual([me.appUrl]);
    // The event types page: each type's booking link.
    await page.goto("/dashboard/event-types");
    await expect(page.getByRole("link", { name: `${me.appUrl.replace(/^https?:\/\//, "")}/${username}/30min`, exact: true })).toHaveAttribute("href", `${me.appUrl}/${username}/30min`);
    const html = await page.content();
    expect(origins(localUrls(html))).toEqual([me.appUrl]);
    expect(html).not.toContain("localhost:3000");
    // Logging out (next-auth's redirect, built on the server from APP_URL) lands on this instance's login.
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(`${me.appUrl}/login`);
    // The public link leads to the host's page on this instance.
    const hostPage = await context.request.get(`${me.appUrl}/${username}`);
    expect(hostPage.status()).toBe(200);
  } finally {
    await context.close();
  }

  // (Logging out above signed out every session: a new token for the API.)
  const token = (await post(`${me.url}/api/v1/auth/login`, { email, password })).body.accessToken as string;
  const auth = { authorization: `Bearer ${token}` };

  // The host's calendar feed URL, and it answers.
  const feed = await post(`${me.url}/api/v1/me/calendar-feed`, {}, token);
  expect(feed.status).toBe(201);
  expect(new URL(feed.body.url).origin).toBe(me.appUrl);
  const ics = await fetch(`${me.url}${new URL(feed.body.url).pathname}`);
  expect(ics.status).toBe(200);
  expect(await ics.text()).toContain("BEGIN:VCALENDAR");

  // The OAuth redirect URI in Google's consent URL.
  const authorize = await fetch(`${me.url}/api/v1/me/calendar-connections/oauth/provider_a/authorize`, { headers: auth, redirect: "manual" });
  expect(authorize.status).toBe(302);
  const consent = new URL(authorize.headers.get("location")!);
  expect(consent.origin + consent.pathname).toBe("http://127.0.0.1:9/o/oauth2/v2/auth");
  const redirectUri = consent.searchParams.get("redirect_uri")!;
  expect(new URL(redirectUri).origin).toBe(me.appUrl);

  // A guest books the starter event type: the answer's links and the emails' follow this APP_URL.
  const from = DateTime.utc().plus({ days: 1 }).toISODate()!;
  const to = DateTime.utc().plus({ days: 15 }).toISODate()!;
  const slots = (await (await fetch(`${me.url}/api/v1/public/${username}/30min/slots?from=${from}&to=${to}&timezone=UTC`)).json()).slots as { startTime: string }[];
  expect(slots.length).toBeGreaterThan(0);
  const guestEmail = `guest-${randomUUID()}@example.com`;
  const booked = await fetch(`${me.url}/api/v1/public/${username}/30min/bookings`, {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
    body: JSON.stringify({ startTime: slots[0]!.startTime, guestName: "Gus Guest", guestEmail, guestTimezone: "UTC", customAnswers: {} }),
  });
  expect(booked.status).toBe(201);
  const booking = (await booked.json()) as { manageUrl: string; cancelUrl: string };
  expect(new URL(booking.manageUrl).origin).toBe(me.appUrl);
  expect(new URL(booking.cancelUrl).origin).toBe(me.appUrl);

  const mailDir = path.join(me.dataDir, "mail");
  const mails = () => (existsSync(mailDir) ? readdirSync(mailDir).filter((f) => f.endsWith(".eml")) : []).map((f) => decodeMail(readFileSync(path.join(mailDir, f), "utf8")));
  const toGuest = () => mails().filter((m) => new RegExp(`^To: .*<${guestEmail.replace(/[.]/g, "\\.")}>`, "m").test(m));
  await expect.poll(() => toGuest().length, { timeout: 30_000, intervals: [250, 500, 1000] }).toBe(1);
  const inMail = localUrls(toGuest()[0]!);
  expect(inMail).toContain(booking.manageUrl);
  expect(inMail).toContain(booking.cancelUrl);
  // Every address in every mail this instance wrote (the host's too) is its own.
  expect(origins(mails().flatMap(localUrls))).toEqual([me.appUrl]);
  // The manage link works on this instance.
  expect((await fetch(`${me.url}${new URL(booking.manageUrl).pathname}`)).status).toBe(200);

  // Nothing anywhere names the other instance.
  expect(inMail.some((u) => u.startsWith(other.appUrl))).toBe(false);
  expect(feed.body.url.startsWith(other.appUrl)).toBe(false);
}

test("one build started under two APP_URLs gives each its own links in pages, emails, the feed URL and the OAuth redirect", async ({ browser }) => {
  test.setTimeout(180_000);
  const instance = async (host: string): Promise<Instance> => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "booking-runtime-"));
    let appUrl = "";
    const server = await start((port) => {
      appUrl = `http://${host}:${port}`;
      return {
        APP_URL: appUrl,
        DATA_DIR: dataDir,
        GOOGLE_CLIENT_ID: "runtime-config-client",
        GOOGLE_CLIENT_SECRET: "runtime-config-secret",
        GOOGLE_AUTH_URL: "http://127.0.0.1:9/o/oauth2/v2/auth",
      };
    });
    return { ...server, appUrl, dataDir };
  };
  const a = await instance("127.0.0.1");
  try {
    const b = await instance("localhost");
    try {
      expect(a.appUrl).not.toBe(b.appUrl);
      await checkInstance(browser, a, b);
      await checkInstance(browser, b, a);
    } finally {
      await b.stop();
    }
  } finally {
    await a.stop();
  }
});
