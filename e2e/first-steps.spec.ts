import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { hasChromium } from "../playwright.config";
import { expectAccessible, expectNoSidewaysScroll } from "./support/page-checks";

// What a new host meets in their first minutes: copying their link from the checklist, making
// the starter event type their own (its length, its questions), signing up, and the public
// pages that show who they are (avatar or initials, bio, each event type's description).

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "America/New_York", locale: "en-US", viewport: { width: 1280, height: 900 } });

const PASSWORD = "first steps password";
const WIDTHS = [
  [1280, "1280"],
  [390, "390"],
] as const;

type Host = { username: string; email: string; fullName: string; token: string };

async function registerHost(request: APIRequestContext, fullName = "Pia Bright"): Promise<Host> {
  const username = `steps-${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  expect((await request.post("/api/v1/auth/register", { data: { email, password: PASSWORD, fullName, username, timezone: "America/New_York" } })).status()).toBe(201);
  const token = (await (await request.post("/api/v1/auth/login", { data: { email, password: PASSWORD } })).json()).accessToken as string;
  return { username, email, fullName, token };
}

async function logIn(page: Page, host: Host) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(host.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** At both widths: nothing sideways, axe clean, a picture to look at (in /tmp, not committed: test-results/ is emptied by each run). */
async function checkAndShoot(page: Page, name: string) {
  for (const [width, suffix] of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await page.screenshot({ path: `/tmp/slips-shots/${name}-${suffix}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.describe("the checklist's Copy link", () => {
  test.use({ permissions: ["clipboard-read", "clipboard-write"] });

  test("copies the link, says Copied, and only then ticks the step", async ({ page, request }) => {
    const host = await registerHost(request);
    await logIn(page, host);
    const setup = page.getByRole("region", { name: "Get set up" });
    await expect(setup.getByText("0 of 4 done")).toBeVisible();
    const copy = setup.getByRole("button", { name: /^Copy link: / });
    await copy.click();
    // The button stays to say so: ticking the step at the click took it away before it could.
    await expect(copy).toHaveText("Copied");
    await expect(setup.getByText("Share your link (to do)")).toBeAttached();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${new URL(page.url()).origin}/${host.username}`);
    await expect(setup.getByText("Share your link (done)")).toBeAttached();
    await expect(setup.getByText("1 of 4 done")).toBeVisible();
    await expect(copy).toHaveCount(0);
  });
});

test("a new length offers to update the starter's /30min link and description, and changes nothing unasked", async ({ page, request }) => {
  const host = await registerHost(request);
  const headers = { authorization: `Bearer ${host.token}` };
  const [starter] = (await (await request.get("/api/v1/me/event-types", { headers })).json()).data as { id: string }[];
  await logIn(page, host);
  await page.goto(`/dashboard/event-types/${starter!.id}`);
  await page.getByRole("textbox", { name: "Title", exact: true }).fill("Coffee chat");
  const duration = page.getByLabel("Duration (minutes)");
  const offer = page.getByText(/^Update the link to \/\d+min and the description to match \d+ minutes\?/);
  await expect(offer).toHaveCount(0);

  // Keeping them: saved as they were, the shared link untouched.
  await duration.fill("60");
  await expect(offer).toHaveText("Update the link to /60min and the description to match 60 minutes? Links to /30min you have already shared will stop working.");
  await page.getByRole("button", { name: "Keep them" }).click();
  await expect(offer).toHaveCount(0);
  await expect(page.getByRole("textbox", { name: "Link", exact: true })).toHaveValue("30min");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page).toHaveURL(/\/dashboard\/event-types$/);
  const storedStarter = async () => ((await (await request.get("/api/v1/me/event-types", { headers })).json()).data as { id: string }[]).find((e) => e.id === starter!.id);
  let stored = await storedStarter();
  expect(stored).toMatchObject({ slug: "30min", description: "A 30-minute conversation. Pick a time that suits you.", durationMinutes: 60, title: "Coffee chat" });

  // Back at 60 minutes, the words say 30: a new length offers again; the host takes it.
  await page.goto(`/dashboard/event-types/${starter!.id}`);
  await expect(offer).toHaveCount(0);
  await page.getByLabel("Duration (minutes)").fill("45");
  await expect(offer).toBeVisible();
  await expect(page.getByRole("button", { name: "Update to 45 minutes" })).toBeVisible();
  await page.getByRole("button", { name: "Update to 45 minutes" }).scrollIntoViewIfNeeded();
  for (const [width, suffix] of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await page.getByLabel("Duration (minutes)").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `/tmp/slips-shots/duration-offer-${suffix}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await expectAccessible(page);
  // It still names the saved length's words: 60 would not, 30 is what the link says.
  await page.getByLabel("Duration (minutes)").fill("60");
  await expect(offer).toHaveCount(0);
  await page.getByLabel("Duration (minutes)").fill("45");
  await page.getByRole("button", { name: "Update to 45 minutes" }).click();
  await expect(page.getByRole("textbox", { name: "Link", exact: true })).toHaveValue("45min");
  await expect(page.getByRole("textbox", { name: "Description", exact: true })).toHaveValue("A 45-minute conversation. Pick a time that suits you.");
  await expect(page.getByRole("textbox", { name: "Title", exact: true })).toHaveValue("Coffee chat");
  await expect(offer).toHaveCount(0);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page).toHaveURL(/\/dashboard\/event-types$/);
  stored = await storedStarter();
  expect(stored).toMatchObject({ slug: "45min", description: "A 45-minute conversation. Pick a time that suits you.", durationMinutes: 45, title: "Coffee chat" });
});

test("a question's field is its label, marked as a field to fill, apart from whether guests must answer", async ({ page, request }) => {
  const host = await registerHost(request);
  const [starter] = (await (await request.get("/api/v1/me/event-types", { headers: { authorization: `Bearer ${host.token}` } })).json()).data as { id: string }[];
  await logIn(page, host);
  await page.goto(`/dashboard/event-types/${starter!.id}`);
  await page.getByRole("button", { name: "Add a question" }).click();
  const question = page.getByRole("listitem", { name: "Question 1" });
  // The label reads "Question 1 label *": the asterisk is the form kit's mark of a field to fill.
  await expect(question.locator("label").first()).toHaveText("Question 1 label *");
  await expect(question.getByRole("textbox", { name: "Question 1 label", exact: true })).toHaveAttribute("required", "");
  await expect(question.getByRole("checkbox", { name: "Required" })).not.toBeChecked();
  await question.screenshot({ path: "/tmp/slips-shots/question-label-1280.png" });
  await page.setViewportSize({ width: 390, height: 900 });
  await question.screenshot({ path: "/tmp/slips-shots/question-label-390.png" });
});

test("sign-up drops a 'username taken' once the username changes, typed or derived from the name", async ({ page, request }) => {
  const id = randomUUID().slice(0, 8);
  // Someone already has the username the name "Sam Taken <id>" leads to.
  const taken = `sam-taken-${id}`;
  expect((await request.post("/api/v1/auth/register", { data: { email: `${taken}@example.com`, password: PASSWORD, fullName: "Sam", username: taken, timezone: "UTC" } })).status()).toBe(201);

  await page.goto("/register");
  const username = page.getByLabel("Username");
  await page.getByLabel("Full name").fill(`Sam Taken ${id}`);
  await expect(username).toHaveValue(taken);
  await page.getByLabel("Email").fill(`sam-${id}@example.com`);
  await page.getByRole("textbox", { name: "Password" }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  const takenWords = page.getByText("This username is taken. Please choose another.");
  await expect(takenWords).toBeVisible();
  await expect(username).toHaveAttribute("aria-invalid", "true");
  for (const [width, suffix] of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/slips-shots/register-taken-${suffix}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // The name changes, so does the username it leads to: the error was about the old one.
  await page.getByLabel("Full name").fill(`Sam Free ${id}`);
  await expect(username).toHaveValue(`sam-free-${id}`);
  await expect(takenWords).toHaveCount(0);
  await expect(username).toHaveAttribute("aria-invalid", "false");
  await expect(page.getByText(/Please check the highlighted fields/)).toHaveCount(0);

  // Filled in (as a browser's autofill does), the taken one is said again; another clears it.
  await username.fill(taken);
  await expect(takenWords).toBeVisible();
  await username.fill(`sam-own-${id}`);
  await expect(takenWords).toHaveCount(0);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("the host's and the team's pages show the avatar or initials, the bio as written, and each event type's description", async ({ page, request }) => {
  const host = await registerHost(request, "Pia Bright");
  const headers = { authorization: `Bearer ${host.token}` };
  expect(
    (
      await request.post("/api/v1/me/event-types", {
        headers,
        data: { slug: "review", title: "Portfolio review", durationMinutes: 45, description: "Bring two projects.\nWe look at them together." },
      })
    ).status(),
  ).toBe(201);
  await logIn(page, host);

  await test.step("the bio is written in the profile settings, checked for length first", async () => {
    await page.goto("/dashboard/settings");
    const bio = page.getByRole("textbox", { name: "Bio" });
    await bio.fill("x".repeat(281));
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect(bio).toHaveAccessibleDescription(/Must be at most 280 characters/);
    await bio.fill("Designer in Lisbon.\nAsk me about <b>portfolios</b> & prices.");
    await expect(bio).toHaveAccessibleDescription(/A few words guests read on your public page.*60 of 280 characters/);
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
    for (const [width, suffix] of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await bio.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/tmp/slips-shots/profile-bio-${suffix}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectAccessible(page);
    expect((await (await request.get("/api/v1/me", { headers })).json()).bio).toBe("Designer in Lisbon.\nAsk me about <b>portfolios</b> & prices.");
  });

  await test.step("the public page: initials, name, bio as text, descriptions", async () => {
    await page.goto(`/${host.username}`);
    await expect(page.getByRole("heading", { level: 1, name: "Pia Bright" })).toBeVisible();
    await expect(page.getByText("PB", { exact: true })).toBeVisible();
    await expect(page.getByText("Ask me about <b>portfolios</b> & prices.")).toBeVisible();
    await expect(page.locator("main b, body b")).toHaveCount(0);
    const review = page.getByRole("link", { name: /Portfolio review/ });
    await expect(review).toContainText("Bring two projects.");
    await expect(page.getByRole("link", { name: /30 minute meeting/ })).toContainText("A 30-minute conversation. Pick a time that suits you.");
    await checkAndShoot(page, "host-page");
  });

  await test.step("with an avatar, the picture instead of the initials", async () => {
    const origin = new URL(page.url()).origin;
    expect((await request.patch("/api/v1/me", { headers, data: { avatarUrl: `${origin}/favicon.svg` } })).status()).toBe(200);
    await page.goto(`/${host.username}`);
    await expect(page.locator(`img[src="${origin}/favicon.svg"]`)).toBeVisible();
    await expect(page.getByText("PB", { exact: true })).toHaveCount(0);
  });

  await test.step("a team's bio in its settings, shown on its page under its initials", async () => {
    const teamSlug = `steps-team-${randomUUID().slice(0, 8)}`;
    const team = (await (await request.post("/api/v1/me/teams", { headers, data: { slug: teamSlug, name: "Studio Bright" } })).json()) as { id: string };
    expect(
      (
        await request.post(`/api/v1/me/teams/${team.id}/event-types`, {
          headers,
          data: { slug: "kickoff", title: "Project kickoff", durationMinutes: 60, schedulingType: "round_robin", description: "We plan your project's first month." },
        })
      ).status(),
    ).toBe(201);
    await page.goto(`/dashboard/teams/${team.id}`);
    const bio = page.getByRole("textbox", { name: "Bio" });
    await bio.fill("y".repeat(281));
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(bio).toHaveAccessibleDescription(/Must be at most 280 characters/);
    await bio.fill("A two-person design studio. We answer within a day.");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("Saved.")).toBeVisible();
    for (const [width, suffix] of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await bio.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/tmp/slips-shots/team-bio-${suffix}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.goto(`/team/${teamSlug}`);
    await expect(page.getByRole("heading", { level: 1, name: "Studio Bright" })).toBeVisible();
    await expect(page.getByText("SB", { exact: true })).toBeVisible();
    await expect(page.getByText("A two-person design studio. We answer within a day.")).toBeVisible();
    await expect(page.getByRole("link", { name: /Project kickoff/ })).toContainText("We plan your project's first month.");
    await checkAndShoot(page, "team-page");
  });
});
