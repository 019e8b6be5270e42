import { randomUUID } from "node:crypto";
import { hasChromium } from "../playwright.config";
import { expect, test } from "./support/fixtures";

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ hostFields: { fullName: "Sam Server", prefix: "ssr" } });

// The dashboard's pages arrive with their data: the first HTML already holds the host's event
// types, hours, calendars, endpoints, bookings, an event type's settings and the profile, and no
// "Loading…" line waits for a second request.
test("dashboard pages render their data on the server", async ({ page, request, host }) => {
  const { username } = host;
  await expect(page).toHaveURL(/\/dashboard$/);

  // A guest books the starter event type, so the bookings page has a booking to show.
  const eventTypes = (await (await page.request.get("/api/v1/me/event-types")).json()).data as { id: string; slug: string }[];
  const starter = eventTypes.find((e) => e.slug === "30min")!;
  const from = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const to = new Date(Date.now() + 15 * 86_400_000).toISOString().slice(0, 10);
  const slots = (await (await request.get(`/api/v1/public/${username}/30min/slots?from=${from}&to=${to}&timezone=UTC`)).json()).slots as { startTime: string }[];
  const booked = await request.post(`/api/v1/public/${username}/30min/bookings`, {
    headers: { "idempotency-key": randomUUID() },
    data: { startTime: slots[0]!.startTime, guestName: "Gita Guest", guestEmail: "gita@example.com", guestTimezone: "UTC", customAnswers: {} },
  });
  expect(booked.status()).toBe(201);

  const pages: [string, string][] = [
    ["/dashboard", "Get set up"],
    ["/dashboard/event-types", "30 minute meeting"],
    ["/dashboard/availability", "Minimum notice"],
    ["/dashboard/calendars", "Apple iCloud"],
    ["/dashboard/webhooks", "endpoint"],
    ["/dashboard/bookings", "Gita Guest"],
    [`/dashboard/event-types/${starter.id}`, 'value="30 minute meeting"'],
    ["/dashboard/settings", 'value="Sam Server"'],
    ["/dashboard/teams", "No teams yet"],
    ["/dashboard/payments", "Payments are not set up on this service."],
    // Gita's booking is tomorrow or later: the next two weeks' insights count it.
    [`/dashboard/insights?from=${from}&to=${to}`, "1 booking in "],
  ];
  for (const [path, text] of pages) {
    // The page's own request with the session cookie: what arrives before any script runs.
    const html = await (await page.request.get(path)).text();
    const visible = html.replace(/<script[\s\S]*?<\/script>/g, "");
    expect(visible, path).toContain(text);
    expect(visible, path).not.toMatch(/Loading/);
  }
});
