import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";

// A host's booking page inside another site (issue 12): the host copies the iframe snippet from the
// event type's page in the dashboard, a page on another origin carries it, a guest books inside the
// frame, and the page around it hears of the booking by postMessage. The framed page has no page
// margins and no links of its own; the dashboard refuses to be framed at all.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "Europe/Berlin", locale: "en-GB" });

let site: Server;
let siteUrl: string;
/** What "another site" serves: a heading, a message listener, and this HTML (an iframe). */
let frameHtml = "";

test.beforeAll(async () => {
  // "Another site": the same machine, another port (and host name), so another origin.
  site = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html><body><h1>My site</h1>
      <script>window.received = []; window.addEventListener("message", (e) => window.received.push({ origin: e.origin, data: e.data }));</script>
      ${frameHtml}</body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://localhost:${(site.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
});

type Received = { origin: string; data: { type: string; bookingId: string; startTime: string } }[];

test("the host copies the snippet, another site embeds it, a guest books inside it, and that site receives booking.created", async ({ page, request, baseURL }) => {
  const username = `em-${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  const password = "embed password";
  await request.post("/api/v1/auth/register", { data: { email, password, fullName: "Emma Host", username, timezone: "UTC" } });
  const token = (await (await request.post("/api/v1/auth/login", { data: { email, password } })).json()).accessToken;
  const auth = { authorization: `Bearer ${token}` };
  await request.put("/api/v1/me/availability", {
    headers: auth,
    data: { minNoticeHours: 0, maxAdvanceDays: 30, weeklyRules: [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: "08:00", endTime: "18:00" })), dateOverrides: [] },
  });
  const eventType = await (await request.post("/api/v1/me/event-types", { headers: auth, data: { slug: "chat", title: "Chat", durationMinutes: 30 } })).json();

  // The dashboard offers the snippet; the copy button puts it on the clipboard.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await page.goto(`/dashboard/event-types/${eventType.id}`);
  const section = page.getByRole("region", { name: "Embed on your site" });
  await expect(section.locator("pre code")).toHaveText(`<iframe src="${eventType.publicUrl}?embed=1" title="Chat" style="width:100%;min-height:720px;border:0"></iframe>`);
  await section.getByRole("button", { name: /^Copy snippet/ }).click();
  await expect(section.getByRole("button", { name: /^Copy snippet/ })).toHaveText("Copied");
  frameHtml = await page.evaluate(() => navigator.clipboard.readText());
  expect(frameHtml).toContain(`${baseURL}/${username}/chat?embed=1`);

  await page.goto(siteUrl);
  const frame = page.frameLocator("iframe");
  await expect(frame.getByRole("heading", { name: "Chat" })).toBeVisible();
  // Compact: no page margins around the card, and nothing to click away to.
  const framed = page.frame({ url: /embed=1/ })!;
  expect(await framed.evaluate(() => ({ left: document.querySelector("main")!.getBoundingClientRect().left, padding: getComputedStyle(document.querySelector("main")!).paddingTop }))).toEqual({
    left: 0,
    padding: "0px",
  });
  await expect(frame.getByRole("link")).toHaveCount(0);

  await frame.getByRole("group").getByRole("button", { name: /^\d{2}:\d{2}$/ }).first().click();
  await frame.getByLabel("Your name").fill("Iris Frame");
  await frame.getByLabel("Email").fill(`${randomUUID().slice(0, 8)}@example.com`);
  await frame.getByRole("button", { name: "Confirm booking" }).click();
  await expect(frame.getByRole("heading", { name: "You are booked" })).toBeVisible();
  // The guest's own pages refuse framing: from the frame they open in a tab of their own.
  await expect(frame.getByRole("link", { name: "cancel this booking" })).toHaveAttribute("target", "_blank");
  await expect(frame.getByRole("link", { name: "Pick another time" })).toHaveAttribute("target", "_blank");

  await expect.poll(() => page.evaluate(() => (window as unknown as { received: unknown[] }).received.length)).toBe(1);
  const [message] = await page.evaluate(() => (window as unknown as { received: Received }).received);
  expect(message!.origin).toBe(new URL(baseURL!).origin);
  expect(message!.data).toEqual({ type: "booking.created", bookingId: expect.stringMatching(/^bkg_/), startTime: expect.stringMatching(/Z$/) });
  const listed = (await (await request.get("/api/v1/me/bookings", { headers: auth })).json()).data;
  expect(listed).toEqual([expect.objectContaining({ id: message!.data.bookingId, startTime: message!.data.startTime, guestName: "Iris Frame" })]);
  expect(DateTime.fromISO(message!.data.startTime).toMillis()).toBeGreaterThan(Date.now());
});

test("the dashboard, the cancel page and a booking page without ?embed=1 refuse to be framed by another site", async ({ page, request, baseURL }) => {
  const host = `fr-${randomUUID().slice(0, 8)}`;
  await request.post("/api/v1/auth/register", { data: { email: `${host}@example.com`, password: "frame password", fullName: "Fran Host", username: host, timezone: "UTC" } });
  const token = (await (await request.post("/api/v1/auth/login", { data: { email: `${host}@example.com`, password: "frame password" } })).json()).accessToken;
  await request.post("/api/v1/me/event-types", { headers: { authorization: `Bearer ${token}` }, data: { slug: "chat", title: "Chat", durationMinutes: 30 } });

  for (const path of ["/dashboard", "/login", "/", `/${host}/chat`, "/cancel/some-token"]) {
    const headers = (await request.get(path)).headers();
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["x-frame-options"]).toBe("DENY");

    frameHtml = `<iframe src="${baseURL}${path}" style="width:100%;height:600px;border:0"></iframe>`;
    const blocked = page.waitForEvent("console", { predicate: (m) => /frame-ancestors|Refused to display/i.test(m.text()), timeout: 10_000 });
    await page.goto(siteUrl);
    await blocked;
    // The frame holds the browser's error page, never the framed page.
    const child = page.frames().find((f) => f !== page.mainFrame());
    expect(child?.url()).not.toMatch(new RegExp(`^${baseURL}`));
    await expect(page.frameLocator("iframe").getByRole("button", { name: "Log in" })).toHaveCount(0);
    await expect(page.frameLocator("iframe").getByRole("heading", { name: "Chat" })).toHaveCount(0);
  }
  // Only the booking page with ?embed=1 may be framed, by anyone.
  expect((await request.get(`/${host}/chat?embed=1`)).headers()["content-security-policy"]).toContain("frame-ancestors *");
});
