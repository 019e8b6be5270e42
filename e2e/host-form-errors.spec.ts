import { randomUUID } from "node:crypto";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { hasChromium } from "../playwright.config";
import { expectAccessible, expectNoSidewaysScroll } from "./support/page-checks";

// The host's two big forms when something is wrong, at 1280 and 390 px: every problem is shown at
// once at its field, in plain words; the focus goes to the first field to fix; each problem goes
// as soon as its field is right; the API's issues (400 validation_error) land at their fields too.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "UTC", locale: "en-US" });

// What zod or a validator says when nobody wrote the words: never for a person's eyes.
const RAW = /Too small|Too big|Invalid input|expected (?:number|string|int)|received (?:undefined|null|number|string)|>=|<=|Invalid option/;

async function signUpAndLogIn(page: Page, prefix: string) {
  const username = `${prefix}-${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  const register = await page.request.post("/api/v1/auth/register", { data: { email, password: "form errors 1", fullName: "Fay Fields", username, timezone: "UTC" } });
  expect(register.status()).toBe(201);
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("form errors 1");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return username;
}

async function expectProblem(field: Locator, words: string | RegExp) {
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(words);
}

async function expectFine(field: Locator) {
  await expect(field).not.toHaveAttribute("aria-invalid", "true");
}

/** No raw validator text anywhere on the page. */
async function expectPlainWords(page: Page) {
  expect(await page.locator("main").innerText()).not.toMatch(RAW);
}

for (const [width, suffix] of [
  [1280, ""],
  [390, "-390"],
] as const) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test("the event-type form shows every problem at once, focuses the first, and clears each when fixed", async ({ page }) => {
      await signUpAndLogIn(page, "etf");
      let posts = 0;
      page.on("request", (r) => {
        if (r.method() === "POST" && r.url().endsWith("/api/v1/me/event-types")) posts++;
      });
      await page.goto("/dashboard/event-types/new");
      const title = page.getByLabel("Title");
      const link = page.getByRole("textbox", { name: "Link" });
      const duration = page.getByLabel("Duration (minutes)");
      const after = page.getByLabel("Free time after (minutes)");
      await link.fill("Team Call");
      await duration.fill("2");
      await after.fill("300");
      await page.getByRole("button", { name: "Add a question" }).click();
      const question = page.getByRole("textbox", { name: "Question 1" });
      await page.getByRole("button", { name: "Create event type" }).click();

      await test.step("all five problems at once, in plain words, the first field focused, nothing sent", async () => {
        await expect(page.getByRole("alert").filter({ hasText: "not created" })).toHaveText("Your event type was not created: 5 fields need a change.");
        await expect(title).toBeFocused();
        await expectProblem(title, "Enter a title.");
        await expectProblem(link, /Use only lower-case letters, digits and hyphens/);
        await expectProblem(duration, /5 to 720\. Enter whole minutes from 5 to 720\.$/);
        await expectProblem(after, /Enter whole minutes from 0 to 240/);
        await expectProblem(question, "Write the question, or remove it.");
        await expectPlainWords(page);
        expect(posts).toBe(0);
        await expectAccessible(page);
        await expectNoSidewaysScroll(page);
        await page.screenshot({ path: `e2e/screenshots/event-type-errors${suffix}.png`, fullPage: true });
      });

      await test.step("each problem goes as soon as its field is right, and not before", async () => {
        await title.fill("Team call");
        await expectFine(title);
        await expect(page.getByRole("alert").filter({ hasText: "not created" })).toContainText("4 fields need a change");
        await duration.fill("4");
        await expectProblem(duration, /Enter whole minutes from 5 to 720\.$/);
        await duration.fill("45");
        await expectFine(duration);
        await link.fill("team-");
        await expectProblem(link, /Start and end with a letter or digit/);
        await link.fill("team-call");
        await expectFine(link);
        await after.fill("15");
        await expectFine(after);
        await question.fill("Company");
        await expectFine(question);
        await expect(page.getByRole("alert").filter({ hasText: "not created" })).toHaveCount(0);
      });

      await test.step("the API's issues land at their fields, all at once, the first focused", async () => {
        // The page cannot see these (the API is asked to say them): every issue of a 400 at its field.
        await page.route("**/api/v1/me/event-types", (route) =>
          route.fulfill({
            status: 400,
            contentType: "application/json",
            body: JSON.stringify({
              error: "validation_error",
              message: "The request body is invalid",
              details: {
                issues: [
                  { path: "durationMinutes", message: "Must be a whole number of minutes from 5 to 720" },
                  { path: "slug", message: "Must be lower-case letters and digits separated by single hyphens" },
                  { path: "customQuestions.0.id", message: "This id is reserved; choose another" },
                  { path: "customQuestions.0.type", message: "Must be one of the types offered" },
                  { path: "customQuestions.0.required", message: "Must be true or false" },
                ],
              },
            }),
          }),
        );
        await page.getByRole("button", { name: "Create event type" }).click();
        const summary = page.getByRole("alert").filter({ hasText: "not created" });
        await expect(summary).toContainText("Your event type was not created: 4 fields need a change.");
        // What no field shows is listed, saying which question; the question's type is said at its editor.
        await expect(summary).toContainText("Question 1: Must be true or false");
        await expect(page.getByText("Must be one of the types offered")).toBeVisible();
        await expect(link).toBeFocused();
        await expectProblem(link, /separated by single hyphens/);
        await expectProblem(duration, /Must be a whole number of minutes from 5 to 720$/);
        await expectProblem(question, "This id is reserved; choose another");
        // An API problem goes when its field is edited (only the API can say it is right).
        await duration.fill("30");
        await expectFine(duration);
        await expectProblem(link, /separated by single hyphens/);
        await page.unroute("**/api/v1/me/event-types");
      });

      await test.step("a link already in use is said at the link; then the event type is created", async () => {
        await link.fill("30min");
        await page.getByRole("button", { name: "Create event type" }).click();
        await expectProblem(link, /You already have an event type at this link\. Choose another\.$/);
        await expect(link).toBeFocused();
        await link.fill("team-call");
        await expectFine(link);
        await page.getByRole("button", { name: "Create event type" }).click();
        await expect(page).toHaveURL(/\/dashboard\/event-types$/);
      });

      await test.step("the edit page: the settings first, the tools after them", async () => {
        await page.getByRole("link", { name: "Team call", exact: true }).click();
        const editTitle = page.getByRole("textbox", { name: "Title" });
        await expect(editTitle).toHaveValue("Team call");
        const save = await page.getByRole("button", { name: "Save changes" }).boundingBox();
        const check = await page.getByRole("heading", { name: "Check a time" }).boundingBox();
        const embed = await page.getByRole("heading", { name: "Embed on your site" }).boundingBox();
        expect(save!.y).toBeLessThan(check!.y);
        expect(check!.y).toBeLessThan(embed!.y);
        await editTitle.fill("");
        await page.getByRole("button", { name: "Save changes" }).click();
        await expect(page.getByRole("alert").filter({ hasText: "not saved" })).toHaveText("Your changes were not saved: one field needs a change.");
        await expect(editTitle).toBeFocused();
      });
    });

    test("the availability form shows every problem at once, focuses the first, and clears each when fixed", async ({ page }) => {
      await signUpAndLogIn(page, "avf");
      let puts = 0;
      page.on("request", (r) => {
        if (r.method() === "PUT" && r.url().endsWith("/api/v1/me/availability")) puts++;
      });
      await page.goto("/dashboard/availability");
      const mondayEnd = page.getByRole("group", { name: "Monday, interval 1", exact: true }).getByLabel("End");
      const mondayStart = page.getByRole("group", { name: "Monday, interval 1", exact: true }).getByLabel("Start");
      const notice = page.getByLabel("Minimum notice (hours)");
      const bookingWindow = page.getByLabel("Booking window (days)");
      await mondayEnd.fill("08:00");
      await notice.fill("");
      await bookingWindow.fill("0");
      await page.getByRole("button", { name: "Save" }).click();

      const summary = page.getByRole("alert").filter({ hasText: "to fix" });
      await test.step("all three at once, in plain words, the first row focused, nothing sent", async () => {
        await expect(summary).toContainText("3 things to fix");
        await expect(mondayEnd).toBeFocused();
        await expectProblem(mondayEnd, "The end must be after the start.");
        await expectProblem(notice, /Enter whole hours from 0 to 8760/);
        await expectProblem(bookingWindow, /Enter whole days from 1 to 730/);
        await expectPlainWords(page);
        expect(puts).toBe(0);
        await expectAccessible(page);
        await expectNoSidewaysScroll(page);
        // Listed in the page's order, the order the focus meets them.
        await expect(summary.getByRole("listitem")).toHaveText([/^Monday, interval 1:/, /^Minimum notice:/, /^Booking window:/]);
        // Scrolled to the end first, so the sticky save bar sits where it ends up rather than across a day.
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await page.screenshot({ path: `e2e/screenshots/availability-errors${suffix}.png`, fullPage: true });
      });

      await test.step("each problem goes as soon as its field is right", async () => {
        await mondayEnd.fill("08:30");
        await expectProblem(mondayEnd, "The end must be after the start.");
        await mondayEnd.fill("17:00");
        await expectFine(mondayEnd);
        await expect(summary).toContainText("2 things to fix");
        await bookingWindow.fill("60");
        await expectFine(bookingWindow);
        await notice.fill("4");
        await expectFine(notice);
        await expect(summary).toHaveCount(0);
      });

      await test.step("the API's issues land at their rows, all at once, the first focused", async () => {
        await page.route("**/api/v1/me/availability", (route) =>
          route.request().method() === "PUT"
            ? route.fulfill({
                status: 400,
                contentType: "application/json",
                body: JSON.stringify({
                  error: "validation_error",
                  message: "The request body is invalid",
                  details: {
                    issues: [
                      { path: "maxAdvanceDays", message: "Must be a whole number of days from 1 to 730" },
                      { path: "weeklyRules.0.startTime", message: "Overlaps another interval of the same day" },
                    ],
                  },
                }),
              })
            : route.fallback(),
        );
        await page.getByRole("button", { name: "Save" }).click();
        await expect(summary).toContainText("2 things to fix");
        await expect(mondayStart).toBeFocused();
        await expectProblem(mondayStart, "Overlaps another interval of the same day");
        await expectProblem(bookingWindow, /Must be a whole number of days from 1 to 730$/);
        await bookingWindow.fill("61");
        await expectFine(bookingWindow);
        await page.unroute("**/api/v1/me/availability");
        await page.getByRole("button", { name: "Save" }).click();
        await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
        await expect(summary).toHaveCount(0);
      });
    });
  });
}
