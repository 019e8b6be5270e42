import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { DateTime } from "luxon";
import { startFakeGoogle } from "../tests/support/fake-google";
import { post, start } from "./support/server";

// The booking page is kept per instance and language (lib/http/page-cache.ts): rendered once,
// answered to every next guest from memory. What it was made of changing must change the next
// page any guest gets, on every instance: here two instances on one PostgreSQL, a guest's page
// read on both before and after each change made through one of them.

/** What the page's calendar says of `date` ("Friday, December 4, 2 open times"), as a guest's screen reader reads it. */
function dayOnPage(html: string, date: string): string {
  const label = new RegExp(`data-date="${date}"[^>]*aria-label="([^"]*)"`).exec(html)?.[1];
  if (!label) throw new Error(`the page shows no ${date}`);
  return label;
}

async function page(base: string, pathname: string, headers: Record<string, string> = {}) {
  const res = await fetch(base + pathname, { headers });
  expect(res.status).toBe(200);
  return res.text();
}

test("each change to what a booking page is made of changes the next page on both instances", async () => {
  const url = process.env.TEST_DATABASE_URL;
  test.skip(!url && process.env.CI !== "true", "TEST_DATABASE_URL is not set: skipping the two-instance PostgreSQL run");
  expect(url, "CI=true requires TEST_DATABASE_URL").toBeTruthy();
  test.setTimeout(120_000);
  const google = await startFakeGoogle();
  const secrets = { JWT_SECRET: randomBytes(32).toString("hex"), ENCRYPTION_KEY: randomBytes(32).toString("base64") };
  const env = (port: number) => ({ ...google.env, ...secrets, DATABASE_URL: url!, APP_URL: `http://127.0.0.1:${port}`, RATE_LIMITS: "off" });
  const a = await start((port) => ({ ...env(port), DATA_DIR: mkdtempSync(path.join(tmpdir(), "page-a-")) }));
  const b = await start((port) => ({ ...env(port), DATA_DIR: mkdtempSync(path.join(tmpdir(), "page-b-")) }));
  try {
    const username = `kept${Date.now().toString(36)}`;
    const email = `${username}@example.com`;
    expect((await post(`${a.url}/api/v1/auth/register`, { email, password: "two-instances", fullName: "Kept Host", username, timezone: "UTC" })).status).toBe(201);
    const token = (await post(`${a.url}/api/v1/auth/login`, { email, password: "two-instances" })).body.accessToken as string;
    const auth = { "content-type": "application/json", authorization: `Bearer ${token}` };
    const date = DateTime.utc().plus({ days: 3 }).toISODate()!;
    const hours = (end: string) =>
      fetch(`${a.url}/api/v1/me/availability`, {
        method: "PUT",
        headers: auth,
        body: JSON.stringify({ minNoticeHours: 0, maxAdvanceDays: 30, weeklyRules: [], dateOverrides: [{ date, available: true, intervals: [{ startTime: "09:00", endTime: end }] }] }),
      });
    expect((await hours("10:00")).status).toBe(200);
    const made = await post(`${a.url}/api/v1/me/event-types`, { slug: "sync", title: "Sync", durationMinutes: 30 }, token);
    expect(made.status).toBe(201);
    const pathname = `/${username}/sync`;

    /**
     * The next page any guest gets: on the instance that made the change at once, on the other
     * as soon as PostgreSQL's NOTIFY reaches it (milliseconds; polled). A change made by a job
     * (a calendar's sync) has no writer to ask first: both are polled.
     */
    const bothShow = async (writer: typeof a | undefined, what: (html: string) => string, expected: string) => {
      if (writer) expect(what(await page(writer.url, pathname))).toBe(expected);
      for (const instance of [a, b].filter((i) => i !== writer)) {
        await expect.poll(async () => what(await page(instance.url, pathname)), { timeout: 5_000, intervals: [25, 50, 100, 250] }).toBe(expected);
      }
    };
    // "2 open times", "not bookable": what the day says after its name.
    const times = (html: string) => dayOnPage(html, date).replace(/^.*, /, "");
    // Both instances keep the page now: asked twice, the second from memory.
    for (const instance of [a, b]) {
      await page(instance.url, pathname);
      expect(times(await page(instance.url, pathname))).toBe("2 open times");
    }

    // A guest books on A.
    const booked = await fetch(`${a.url}/api/v1/public/${username}/sync/bookings`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
      body: JSON.stringify({ startTime: `${date}T09:00:00Z`, guestName: "Guest", guestEmail: `g-${randomUUID()}@example.com`, guestTimezone: "UTC" }),
    });
    expect(booked.status).toBe(201);
    const booking = (await booked.json()) as { id: string };
    await bothShow(a, times, "1 open time");

    // The host cancels it on B.
    const cancelled = await fetch(`${b.url}/api/v1/me/bookings/${booking.id}/cancel`, { method: "POST", headers: auth, body: JSON.stringify({}) });
    expect(cancelled.status).toBe(200);
    await bothShow(b, times, "2 open times");

    // The host's hours change on A.
    expect((await hours("11:00")).status).toBe(200);
    await bothShow(a, times, "4 open times");

    // The event type is edited on B.
    const edited = await fetch(`${b.url}/api/v1/me/event-types/${made.body.id}`, { method: "PATCH", headers: auth, body: JSON.stringify({ title: "Project sync" }) });
    expect(edited.status).toBe(200);
    await bothShow(b, (html) => /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1] ?? "", "Project sync");

    // A connected calendar gets a busy hour over the first two times; A syncs it.
    const authorize = await fetch(`${a.url}/api/v1/me/calendar-connections/oauth/provider_a/authorize`, { headers: auth, redirect: "manual" });
    expect(authorize.status).toBe(302);
    const nonce = authorize.headers.getSetCookie().map((c) => c.split(";")[0]!).join("; ");
    const callback = await fetch(await google.consent(authorize.headers.get("location")!), { redirect: "manual", headers: { cookie: nonce } });
    expect(callback.headers.get("location")).toContain("connected=");
    const connections = (await (await fetch(`${a.url}/api/v1/me/calendar-connections`, { headers: auth })).json()) as { data: { id: string }[] };
    const connection = connections.data[0]!.id;
    // The connection's first sync found nothing busy: the page still shows four times.
    await bothShow(undefined, times, "4 open times");
    const start = DateTime.fromISO(`${date}T09:00:00Z`).toJSDate();
    google.addEvent(google.email, { start, end: new Date(start.getTime() + 3_600_000) });
    const synced = await fetch(`${a.url}/api/v1/me/calendar-connections/${connection}/sync`, { method: "POST", headers: auth });
    expect(synced.status).toBeLessThan(300);
    await bothShow(undefined, times, "2 open times");
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    await google.close();
  }
});

test("a kept page is never another language's: guests in five languages and two first weekdays at once each get their own", async () => {
  const server = await start({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "page-lang-")), RATE_LIMITS: "off" });
  try {
    const username = `lang${Date.now().toString(36)}`;
    const email = `${username}@example.com`;
    expect((await post(`${server.url}/api/v1/auth/register`, { email, password: "languages", fullName: "Lang Host", username, timezone: "Europe/Berlin" })).status).toBe(201);
    const token = (await post(`${server.url}/api/v1/auth/login`, { email, password: "languages" })).body.accessToken as string;
    expect((await post(`${server.url}/api/v1/me/event-types`, { slug: "talk", title: "Talk", durationMinutes: 30 }, token)).status).toBe(201);
    const pathname = `/${username}/talk`;
    // Each guest, how their browser asks, and what their page must say.
    const guests: { headers: Record<string, string>; query?: string; lang: string; firstDay: string }[] = [
      { headers: { "accept-language": "en-US,en;q=0.9" }, lang: "en", firstDay: "Sunday" },
      { headers: { "accept-language": "en-GB,en;q=0.9" }, lang: "en", firstDay: "Monday" },
      { headers: { "accept-language": "de-DE,de;q=0.9" }, lang: "de", firstDay: "Montag" },
      { headers: { "accept-language": "fr-FR,fr;q=0.9" }, lang: "fr", firstDay: "lundi" },
      { headers: { "accept-language": "es-ES" }, lang: "es", firstDay: "lunes" },
      { headers: { "accept-language": "pt-BR" }, lang: "pt", firstDay: "domingo" },
      // Chosen on the page: the cookie, then ?lang=, over the browser's list.
      { headers: { "accept-language": "de-DE", cookie: "booking_lang=fr" }, lang: "fr", firstDay: "lundi" },
      { headers: { "accept-language": "de-DE", cookie: "booking_lang=fr" }, query: "?lang=es", lang: "es", firstDay: "lunes" },
    ];
    // Four rounds of everyone at once: the first renders each page, the rest are answered from memory.
    for (let round = 0; round < 4; round++) {
      const pages = await Promise.all(guests.map((g) => page(server.url, pathname + (g.query ?? ""), g.headers)));
      for (const [i, html] of pages.entries()) {
        const guest = guests[i]!;
        expect(/<main lang="([a-z]+)"/.exec(html)?.[1], `${JSON.stringify(guest)}, round ${round}`).toBe(guest.lang);
        // The calendar's first column: the week as the guest's browser starts it.
        expect(/<th scope="col"[^>]*>.*?<span class="sr-only">([^<]+)<\/span>/.exec(html)?.[1], `${JSON.stringify(guest)}, round ${round}`).toBe(guest.firstDay);
      }
    }
  } finally {
    await server.stop();
  }
});
