import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, type Browser, type Page } from "@playwright/test";
import { startRadicale, type Radicale } from "../../tests/support/radicale";
import { expectNoSidewaysScroll } from "./page-checks";
import { post, start } from "./server";

export const SHOTS = "e2e/screenshots";

/** A full-page picture at `width`, with nothing wider than the screen. */
export async function shoot(page: Page, width: number, file: string) {
  await page.setViewportSize({ width, height: 900 });
  await page.waitForTimeout(150);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${SHOTS}/${file}`, fullPage: true });
}

export type CalendarHost = { radicale: Radicale; server: Awaited<ReturnType<typeof start>>; page: Page; email: string; password: string; close(): Promise<void> };

/**
 * A server of its own pointed at a real Radicale holding `calendars` (id → name), and a host
 * registered there and logged in through the login page, landed on `landing` (a dashboard path).
 * Undefined when Radicale is not installed (the caller skips).
 */
export async function calendarHost(browser: Browser, name: string, calendars: Record<string, string>, landing: string): Promise<CalendarHost | undefined> {
  const radicale = await startRadicale();
  if (!radicale) return undefined;
  mkdirSync(SHOTS, { recursive: true });
  for (const [id, label] of Object.entries(calendars)) await radicale.createCalendar(id, label);
  const server = await start({ DATA_DIR: mkdtempSync(path.join(tmpdir(), `booking-${name}-`)), CALDAV_SERVER_URL: radicale.url });
  // APP_URL defaults to http://localhost:{port}: the browser uses that name, so the session
  // cookie and next-auth's redirects agree.
  const base = server.url.replace("127.0.0.1", "localhost");
  const context = await browser.newContext({ baseURL: base, timezoneId: "Europe/Berlin", locale: "en-US", viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const close = async () => {
    await context.close();
    await server.stop();
    await radicale.close();
  };
  try {
    const username = `${name}-${randomUUID().slice(0, 8)}`;
    const email = `${username}@example.com`;
    const password = "calendars password 1";
    expect((await post(`${server.url}/api/v1/auth/register`, { email, password, fullName: "Cal Host", username, timezone: "Europe/Berlin" })).status).toBe(201);
    await page.goto(`/login?callbackUrl=${encodeURIComponent(landing)}`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(new RegExp(`${landing.replace(/[/]/g, "\\/")}$`));
    return { radicale, server, page, email, password, close };
  } catch (error) {
    await close();
    throw error;
  }
}
