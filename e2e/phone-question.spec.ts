import { expect, test } from "@playwright/test";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { setUpHost } from "./support/host";

// A phone question in a real browser: a telephone field beside its country (a British browser:
// the United Kingdom), a number that is not one of that country's is refused at the field before
// anything is sent, and one written with + and its country code is stored in E.164.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "Europe/Paris", locale: "en-GB" });

test("a guest answers a phone question: refused at the field when not a number, stored in E.164 when it is", async ({ page, request }) => {
  const { username, headers, date } = await setUpHost(request);
  const created = await request.post("/api/v1/me/event-types", {
    headers,
    data: { slug: "phone-call", title: "Phone call", durationMinutes: 30, customQuestions: [{ id: "mobile", label: "Mobile number", type: "phone", required: true }] },
  });
  expect(created.status()).toBe(201);
  const parisStart = DateTime.fromISO(`${date}T10:00`, { zone: "America/New_York" }).setZone("Europe/Paris");

  await page.goto(`/${username}/phone-call`);
  await page.getByRole("group", { name: parisStart.toFormat("cccc, LLLL d") }).getByRole("button", { name: parisStart.toFormat("HH:mm") }).click();
  await page.getByLabel("Your name").fill("Pia Guest");
  await page.getByLabel("Email").fill(`pia-${Date.now()}@example.com`);
  const phone = page.getByRole("textbox", { name: "Mobile number" });
  await expect(phone).toHaveAttribute("type", "tel");
  await expect(page.getByText("or start it with + and the country code")).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Mobile number: country" })).toHaveValue("GB");

  await phone.fill("030 1234567");
  await page.getByRole("button", { name: "Confirm booking" }).click();
  await expect(phone).toHaveAttribute("aria-invalid", "true");
  await expect(phone).toBeFocused();
  await expect(phone).toHaveAccessibleDescription(/This is not a phone number of the country chosen/);

  await phone.fill("+33 6 12 34 56 78");
  await page.getByRole("button", { name: "Confirm booking" }).click();
  await expect(page.getByRole("status")).toContainText("You are booked");
  const list = await (await request.get("/api/v1/me/bookings", { headers })).json();
  expect(list.data).toEqual([expect.objectContaining({ guestName: "Pia Guest", customAnswers: { mobile: "+33612345678" } })]);
});
