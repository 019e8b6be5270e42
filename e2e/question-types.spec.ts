import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { hasChromium } from "../playwright.config";
import { setUpHost } from "./support/host";
import { expectAccessible, expectNoSidewaysScroll } from "./support/page-checks";

// Every kind of custom question on a guest's phone (390 px), in a German browser: each drawn as
// its type asks, every mistake named at its field at once before anything is sent, each message
// gone as soon as its field is right, and a phone number typed the German way (the country
// picked from the browser's language) stored in E.164.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ locale: "de-DE", timezoneId: "Europe/Berlin", viewport: { width: 390, height: 844 } });

const QUESTIONS = [
  { id: "topic", label: "Topic" },
  { id: "notes", label: "Anything else?", type: "long_text" },
  { id: "work-email", label: "Work email", type: "email", required: true },
  { id: "seats", label: "Seats", type: "number", required: true },
  { id: "mobile", label: "Mobile", type: "phone", required: true },
  { id: "plan", label: "Plan", type: "single_choice", options: ["Basic", "Pro"], required: true },
  { id: "size", label: "Team size", type: "single_choice", options: ["1–10", "11–50", "More than 50"], display: "dropdown" },
  { id: "tools", label: "Tools you use", type: "checkboxes", options: ["Slack", "Email", "Microsoft Teams"], required: true },
];

async function openForm(page: Page, request: APIRequestContext, slotIndex = 0) {
  const host = await setUpHost(request);
  const created = await request.post("/api/v1/me/event-types", {
    headers: host.headers,
    data: { slug: "all-questions", title: "Onboarding call", durationMinutes: 30, customQuestions: QUESTIONS },
  });
  expect(created.status()).toBe(201);
  const slots = await (await request.get(`/api/v1/public/${host.username}/all-questions/slots?from=${host.date}&to=${host.date}&timezone=Europe/Berlin`)).json();
  // In English (the page follows ?lang=), with the browser's German region still choosing the phone's country.
  await page.goto(`/${host.username}/all-questions?lang=en`);
  // The live picker's time, not the server's preview of it (drawn before the page is interactive: a tap there does nothing).
  await page.locator(`[data-zone]:not([data-preview]) button[data-start="${slots.slots[slotIndex].startTime}"]`).click();
  await expect(page.getByLabel("Your name")).toBeFocused();
  return host;
}

const form = (page: Page) => ({
  name: page.getByLabel("Your name"),
  email: page.getByRole("textbox", { name: "Email", exact: true }),
  topic: page.getByRole("textbox", { name: "Topic (optional)" }),
  notes: page.getByRole("textbox", { name: "Anything else? (optional)" }),
  workEmail: page.getByRole("textbox", { name: "Work email" }),
  seats: page.getByRole("textbox", { name: "Seats" }),
  mobile: page.getByRole("textbox", { name: "Mobile" }),
  country: page.getByRole("combobox", { name: "Mobile: country" }),
  plan: page.getByRole("radiogroup", { name: "Plan" }),
  size: page.getByRole("combobox", { name: "Team size (optional)" }),
  tools: page.getByRole("group", { name: "Tools you use" }),
});

const bookingsOf = async (request: APIRequestContext, headers: Record<string, string>) =>
  (await (await request.get("/api/v1/me/bookings", { headers })).json()).data as { guestName: string; customAnswers: Record<string, string> }[];

test("each question type is drawn as it asks; every mistake is named at once, the first focused, each cleared when fixed; the phone is German by default and stored in E.164", async ({ page, request }) => {
  const { headers } = await openForm(page, request);
  const f = form(page);

  await test.step("each type has its control", async () => {
    await expect(f.topic).toHaveJSProperty("tagName", "INPUT");
    await expect(f.notes).toHaveJSProperty("tagName", "TEXTAREA");
    await expect(f.workEmail).toHaveAttribute("type", "email");
    await expect(f.seats).toHaveAttribute("inputmode", "decimal");
    await expect(f.mobile).toHaveAttribute("type", "tel");
    await expect(f.plan.getByRole("radio")).toHaveCount(2);
    await expect(f.size.locator("option")).toHaveText(["None", "1–10", "11–50", "More than 50"]);
    await expect(f.tools.getByRole("checkbox")).toHaveCount(3);
    // The browser speaks German: the phone's country is Germany, named with its calling code.
    await expect(f.country).toHaveValue("DE");
    await expect(f.country.locator("option:checked")).toHaveText("Germany +49");
    await expect(f.country.locator("option")).not.toHaveCount(1);
  });

  let sent = 0;
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/all-questions/bookings")) sent++;
  });

  await test.step("every mistake at once, in plain words at its field, the focus on the first", async () => {
    await f.name.fill("Greta Gast");
    await f.seats.fill("zwölf");
    await f.mobile.fill("12");
    await page.getByRole("button", { name: "Confirm booking" }).click();
    await expect(f.email).toBeFocused();
    await expect(f.email).toHaveAccessibleDescription("Please enter your email address");
    await expect(f.workEmail).toHaveAccessibleDescription("Please answer this question");
    await expect(f.seats).toHaveAccessibleDescription("Must be a number, like 42 or 3.5");
    await expect(f.mobile).toHaveAccessibleDescription(/This is not a phone number of the country chosen/);
    await expect(f.plan).toHaveAccessibleDescription("Please answer this question");
    await expect(f.plan).toHaveAttribute("aria-invalid", "true");
    await expect(f.tools).toHaveAccessibleDescription(/Please answer this question/);
    for (const valid of [f.name, f.topic, f.notes]) await expect(valid).toHaveAttribute("aria-invalid", "false");
    await expect(page.getByRole("alert").filter({ hasText: "Please correct" })).toHaveText("Please correct the fields marked above.");
    expect(sent, "nothing is sent while the form has mistakes").toBe(0);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await page.screenshot({ path: "e2e/screenshots/booking-questions-errors-390.png", fullPage: true });
  });

  await test.step("each message goes as soon as its field is right", async () => {
    await f.email.fill(`greta-${randomUUID().slice(0, 8)}@example.com`);
    await expect(f.email).toHaveAttribute("aria-invalid", "false");
    await expect(f.workEmail).toHaveAttribute("aria-invalid", "true");

    await f.workEmail.fill("greta@firma");
    await expect(f.workEmail).toHaveAccessibleDescription("Must be an email address, like name@example.com");
    await f.workEmail.fill("greta@firma.de");
    await expect(f.workEmail).toHaveAttribute("aria-invalid", "false");

    // A German keypad's decimal comma is a decimal point.
    await f.seats.fill("2,5");
    await expect(f.seats).toHaveAttribute("aria-invalid", "false");

    await f.plan.getByRole("radio", { name: "Pro" }).check();
    await expect(f.plan).toHaveAttribute("aria-invalid", "false");
    await f.tools.getByRole("checkbox", { name: "Microsoft Teams" }).check();
    await f.tools.getByRole("checkbox", { name: "Slack" }).check();
    await expect(f.tools.getByRole("checkbox", { name: "Slack" })).toHaveAttribute("aria-invalid", "false");
    await f.size.selectOption("11–50");
    await f.notes.fill("Zwei Zeilen\nbitte");

    // Typed as Germans write it, grouped as typed; valid for Germany, so the message goes.
    await f.mobile.fill("");
    await f.mobile.pressSequentially("03012345678");
    await expect(f.mobile).toHaveValue("030 12345678");
    await expect(f.mobile).toHaveAttribute("aria-invalid", "false");
    // The summary went with the last marked field.
    await expect(page.getByRole("alert").filter({ hasText: "Please correct" })).toHaveCount(0);
  });

  await page.screenshot({ path: "e2e/screenshots/booking-questions-390.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: "e2e/screenshots/booking-questions.png", fullPage: true });

  await page.getByRole("button", { name: "Confirm booking" }).click();
  await expect(page.getByRole("status")).toContainText("You are booked");
  expect(await bookingsOf(request, headers)).toEqual([
    expect.objectContaining({
      guestName: "Greta Gast",
      customAnswers: { notes: "Zwei Zeilen\nbitte", "work-email": "greta@firma.de", seats: "2.5", mobile: "+493012345678", plan: "Pro", size: "11–50", tools: "Slack\nMicrosoft Teams" },
    }),
  ]);
});

test("a number written with + and its country code works whatever the picker says, and the picker follows it", async ({ page, request }) => {
  const { headers } = await openForm(page, request);
  const f = form(page);
  await f.name.fill("Pierre Invité");
  await f.email.fill(`pierre-${randomUUID().slice(0, 8)}@example.com`);
  await f.workEmail.fill("pierre@example.fr");
  await f.seats.fill("3");
  await f.plan.getByRole("radio", { name: "Basic" }).check();
  await f.tools.getByRole("checkbox", { name: "Email" }).check();
  await expect(f.country).toHaveValue("DE");
  await f.mobile.pressSequentially("+33612345678");
  await expect(f.mobile).toHaveValue("+33 6 12 34 56 78");
  await expect(f.country).toHaveValue("FR");
  await page.getByRole("button", { name: "Confirm booking" }).click();
  await expect(page.getByRole("status")).toContainText("You are booked");
  expect((await bookingsOf(request, headers))[0]?.customAnswers.mobile).toBe("+33612345678");
});

test("the server's refusals are shown all at once at their fields, and what was typed stays", async ({ page, request }) => {
  await openForm(page, request);
  const f = form(page);
  await f.name.fill("Sven Server");
  await f.email.fill("sven@example.com");
  await f.workEmail.fill("sven@example.com");
  await f.seats.fill("4");
  await f.mobile.pressSequentially("03012345678");
  await f.plan.getByRole("radio", { name: "Basic" }).check();
  await f.tools.getByRole("checkbox", { name: "Slack" }).check();
  // Rules only the server knows (a number range the small metadata cannot see, say).
  await page.route("**/api/v1/public/*/all-questions/bookings", (route) =>
    route.fulfill({
      status: 400,
      contentType: "application/json",
      body: JSON.stringify({
        error: "validation_error",
        message: "The request is invalid",
        details: { issues: [{ path: "customAnswers.mobile", message: "Must be a phone number in international format" }, { path: "customAnswers.seats", message: "Too many seats" }] },
      }),
    }),
  );
  await page.getByRole("button", { name: "Confirm booking" }).click();
  await expect(f.seats).toBeFocused();
  await expect(f.seats).toHaveAccessibleDescription(/Too many seats/);
  await expect(f.mobile).toHaveAccessibleDescription("Choose your country and type your number, or start it with + and the country code. Must be a phone number in international format");
  await expect(page.getByRole("alert").filter({ hasText: "Please correct" })).toHaveText("Please correct the fields marked above.");
  await expect(f.mobile).toHaveValue("030 12345678");
  await expect(f.plan.getByRole("radio", { name: "Basic" })).toBeChecked();
  await f.seats.fill("3");
  await expect(f.seats).toHaveAttribute("aria-invalid", "false");
  await expect(f.mobile).toHaveAttribute("aria-invalid", "true");
});

test("a host gives a question its type, a choice question its options and how it is shown; a mistake in the options is named at them", async ({ page, request }) => {
  const username = `qs-${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  const password = "question password 1";
  expect((await request.post("/api/v1/auth/register", { data: { email, password, fullName: "Quinn Host", username, timezone: "Europe/Berlin" } })).status()).toBe(201);
  const token = (await (await request.post("/api/v1/auth/login", { data: { email, password } })).json()).accessToken as string;

  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await page.goto("/dashboard/event-types/new");
  await page.getByLabel("Title").fill("Discovery call");

  const question = (n: number) => page.getByRole("listitem", { name: `Question ${n}` });
  await page.getByRole("button", { name: "Add a question" }).click();
  await question(1).getByRole("textbox", { name: "Question 1" }).fill("Which plan?");
  await question(1).getByRole("combobox", { name: "Answer" }).selectOption({ label: "One choice" });
  await question(1).getByRole("textbox", { name: "Options" }).fill("Basic\nPro\n\nBasic");
  await question(1).getByRole("combobox", { name: "Show as" }).selectOption({ label: "A dropdown" });
  await question(1).getByRole("checkbox", { name: "Required" }).check();

  await page.getByRole("button", { name: "Add a question" }).click();
  await question(2).getByRole("textbox", { name: "Question 2" }).fill("Tools you use");
  await question(2).getByRole("combobox", { name: "Answer" }).selectOption({ label: "Several choices (checkboxes)" });
  await expect(question(2).getByRole("combobox", { name: "Show as" })).toHaveCount(0);
  await question(2).getByRole("textbox", { name: "Options" }).fill("Slack\nEmail");

  await page.getByRole("button", { name: "Add a question" }).click();
  await question(3).getByRole("textbox", { name: "Question 3" }).fill("Mobile");
  await question(3).getByRole("combobox", { name: "Answer" }).selectOption({ label: "Phone number" });
  await expect(question(3).getByRole("textbox", { name: "Options" })).toHaveCount(0);

  await page.getByRole("button", { name: "Create event type" }).click();
  const options = question(1).getByRole("textbox", { name: "Options" });
  await expect(options).toHaveAttribute("aria-invalid", "true");
  await expect(options).toHaveAccessibleDescription(/Option 3: "Basic" is already an option/);
  await expectAccessible(page);
  for (const [width, suffix] of [[1280, ""], [390, "-390"]] as const) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `e2e/screenshots/event-type-questions${suffix}.png`, fullPage: true });
  }

  await options.fill("Basic\nPro");
  await page.getByRole("button", { name: "Create event type" }).click();
  await expect(page).toHaveURL(/\/dashboard\/event-types$/);
  const [created] = (await (await request.get("/api/v1/me/event-types", { headers: { authorization: `Bearer ${token}` } })).json()).data.filter((e: { title: string }) => e.title === "Discovery call");
  expect(created.customQuestions).toEqual([
    { id: "which-plan", label: "Which plan?", required: true, type: "single_choice", options: ["Basic", "Pro"], display: "dropdown" },
    { id: "tools-you-use", label: "Tools you use", required: false, type: "checkboxes", options: ["Slack", "Email"] },
    { id: "mobile", label: "Mobile", required: false, type: "phone" },
  ]);
});
