import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { hasChromium } from "../playwright.config";
import { expectNoSidewaysScroll } from "./support/page-checks";

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");

test("a new host's link works in the first minute, and the dashboard lists what is left to set up", async ({ page, request }) => {
  const username = `new-${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  await page.goto("/register");
  await page.getByLabel("Full name").fill("Nina New");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill("new host password");
  await page.getByRole("button", { name: /create account|sign up/i }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  const setup = page.getByRole("region", { name: "Get set up" });
  await expect(setup).toBeVisible();
  await expect(setup.getByText("0 of 4 done")).toBeVisible();
  for (const step of ["Set your hours", "Connect your calendar", "Make your first event type yours", "Share your link"]) {
    await expect(setup.getByText(`${step} (to do)`)).toBeAttached();
  }
  for (const [width, suffix] of [[1280, ""], [390, "-390"]] as const) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `e2e/screenshots/dashboard-getting-started${suffix}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await setup.getByRole("button", { name: "These hours suit me" }).click();
  await expect(setup.getByText("1 of 4 done")).toBeVisible();
  await expect(setup.getByText("Set your hours (done)")).toBeAttached();
  // Kept by this browser across visits.
  await page.reload();
  await expect(page.getByRole("region", { name: "Get set up" }).getByText("1 of 4 done")).toBeVisible();

  // The starter event type is live: the public page offers it and its times.
  const guest = await page.context().browser()!.newPage();
  await guest.goto(`/${username}`);
  await guest.getByRole("link", { name: /30 minute meeting/ }).click();
  await expect(guest).toHaveURL(new RegExp(`/${username}/30min$`));
  await expect(guest.getByRole("heading", { name: "30 minute meeting" })).toBeVisible();
  await guest.close();

  // Making the starter one's own ticks the next step.
  const token = (await (await request.post("/api/v1/auth/login", { data: { email, password: "new host password" } })).json()).accessToken as string;
  const list = (await (await request.get("/api/v1/me/event-types", { headers: { authorization: `Bearer ${token}` } })).json()).data as { id: string; slug: string }[];
  expect(list.map((e) => e.slug)).toEqual(["30min"]);
  expect((await request.patch(`/api/v1/me/event-types/${list[0]!.id}`, { headers: { authorization: `Bearer ${token}` }, data: { title: "Coffee chat" } })).status()).toBe(200);
  await page.reload();
  await expect(page.getByRole("region", { name: "Get set up" }).getByText("2 of 4 done")).toBeVisible();
});
