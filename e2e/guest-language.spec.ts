import { expect, test } from "@playwright/test";
import { DateTime } from "luxon";
import { hasChromium } from "../playwright.config";
import { expectAccessible, expectNoSidewaysScroll } from "./support/page-checks";
import { setUpHost } from "./support/host";

// The guest's pages in the guest's language: chosen from the browser (Accept-Language), switched
// with the language select (remembered), and kept with the booking for its later pages and emails.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");

const SHOTS = "e2e/screenshots";
const PHONE = { width: 390, height: 844 };

/** "Dienstag, 16. März": a day as the browser's German writes it. */
const dayIn = (date: DateTime, locale: string) => date.setLocale(locale).toLocaleString({ weekday: "long", month: "long", day: "numeric" });

test.describe("a German browser", () => {
  test.use({ locale: "de-DE", timezoneId: "Europe/Berlin" });

  test("sees the booking page in German (day names, buttons), books, and the booking keeps German", async ({ page, request, browser, baseURL }) => {
    const { username, date } = await setUpHost(request);
    const berlin = DateTime.fromISO(`${date}T10:00`, { zone: "America/New_York" }).setZone("Europe/Berlin");

    await page.goto(`/${username}/consult`);
    await expect(page.locator("main")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("heading", { name: "Wählen Sie Datum und Uhrzeit" })).toBeVisible();
    await expect(page.getByText("30 Minuten")).toBeVisible();
    // The zone line under the calendar: the zone by its German name.
    await expect(page.getByRole("button", { name: "Zeitzone: Mitteleuropäische Zeit Ändern" })).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Sprache (Language)" })).toHaveValue("de");
    await expect(page.getByRole("button", { name: "Nächster Monat" })).toBeVisible();
    await expect(page.getByRole("columnheader", { name: "Montag" })).toBeVisible();
    await expect(page.getByRole("gridcell", { selected: true })).toHaveAccessibleName(`${dayIn(berlin, "de-DE")}, 4 freie Termine`);
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/booking-page-de.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/booking-page-de-390.png`, fullPage: true });

    await page.getByRole("group", { name: dayIn(berlin, "de-DE") }).getByRole("button", { name: berlin.toFormat("HH:mm") }).click();
    await expect(page.getByRole("heading", { name: "Geben Sie Ihre Daten ein" })).toBeVisible();
    // The form speaks German too, its own checks included.
    await page.getByRole("button", { name: "Buchung bestätigen" }).click();
    await expect(page.getByLabel("Ihr Name")).toBeFocused();
    await expect(page.getByLabel("Ihr Name")).toHaveAccessibleDescription("Bitte geben Sie Ihren Namen ein");
    await expect(page.getByRole("textbox", { name: "E-Mail", exact: true })).toHaveAccessibleDescription("Bitte geben Sie Ihre E-Mail-Adresse ein");
    await expect(page.getByRole("textbox", { name: /^Topic/ })).toHaveAccessibleDescription("Bitte beantworten Sie diese Frage");
    await expect(page.getByRole("form").getByRole("alert")).toContainText("Bitte korrigieren Sie die oben markierten Felder.");
    await page.getByLabel("Ihr Name").fill("Greta Gast");
    await page.getByRole("textbox", { name: "E-Mail", exact: true }).fill(`greta-${Date.now()}@example.com`);
    await page.getByRole("textbox", { name: /^Topic/ }).fill("Eine Zweitmeinung");
    await page.getByRole("button", { name: "Buchung bestätigen" }).click();

    const done = page.getByRole("status");
    await expect(done.getByRole("heading", { name: "Ihr Termin ist gebucht" })).toBeVisible();
    await expect(done).toContainText(dayIn(berlin, "de-DE"));
    await expect(done).toContainText("Mitteleuropäische");
    await expect(done.getByRole("link", { name: "stornieren Sie die Buchung" })).toHaveAttribute("href", /\/cancel\/[A-Za-z0-9_-]{43,}$/);
    const manage = await done.getByRole("link", { name: "Die Seite Ihrer Buchung" }).getAttribute("href");
    await expectAccessible(page);

    // Opened later from an English browser (the link in the German email): the booking's language.
    const english = await browser.newContext({ baseURL, locale: "en-US", timezoneId: "America/New_York" });
    const later = await english.newPage();
    await later.goto(manage!);
    await expect(later.getByRole("heading", { name: "Ihre Buchung", level: 1 })).toBeVisible();
    await expect(later.getByRole("link", { name: "Buchung stornieren" })).toBeVisible();
    await expect(later.getByTestId("booking-details")).toContainText(dayIn(berlin, "de-DE"));
    await english.close();
  });
});

test.describe("switching the language", () => {
  test.use({ locale: "en-US", timezoneId: "Europe/Paris", viewport: PHONE });

  test("at 390 px: the select turns the page French, the address and a cookie remember it", async ({ page, request }) => {
    const { username } = await setUpHost(request);
    await page.goto(`/${username}/consult`);
    await expect(page.getByRole("heading", { name: "Select a date and time" })).toBeVisible();
    await expect(page.getByRole("gridcell", { selected: true })).toHaveAccessibleName(/, 4 open times$/);

    await page.getByRole("combobox", { name: "Language" }).selectOption("fr");
    await expect(page.getByRole("heading", { name: "Choisissez une date et une heure" })).toBeVisible();
    await expect(page).toHaveURL(/[?&]lang=fr\b/);
    await expect(page.locator("main")).toHaveAttribute("lang", "fr");
    await expect(page.getByRole("gridcell", { selected: true })).toHaveAccessibleName(/^(lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche) \d+ \S+, 4 créneaux disponibles$/);
    await expect(page.getByRole("button", { name: "Mois suivant" })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Fuseau horaire: .+ Modifier$/ })).toBeVisible();
    await expect(page).toHaveTitle("Consultation avec Flow Host");
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/booking-page-fr-390.png`, fullPage: true });

    // Back without the parameter: the cookie remembers the choice.
    await page.goto(`/${username}/consult`);
    await expect(page.getByRole("heading", { name: "Choisissez une date et une heure" })).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Langue (Language)" })).toHaveValue("fr");

    // And the host's page too.
    await page.goto(`/${username}`);
    await expect(page.getByRole("link", { name: /Consultation/ })).toContainText("30 minutes");
    await expect(page.getByRole("combobox", { name: "Langue (Language)" })).toHaveValue("fr");

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/${username}/consult`);
    await expect(page.getByRole("heading", { name: "Choisissez une date et une heure" })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/booking-page-fr.png`, fullPage: true });
  });

  test("at 390 px: what the guest picked and typed stays through a switch", async ({ page, request }) => {
    const { username, date } = await setUpHost(request);
    const paris = DateTime.fromISO(`${date}T10:00`, { zone: "America/New_York" }).setZone("Europe/Paris");
    await page.goto(`/${username}/consult`);
    await page.getByRole("group", { name: dayIn(paris, "en-US") }).getByRole("button", { name: paris.toFormat("h:mm a") }).click();
    await page.getByLabel("Your name").fill("Paula Guest");

    await page.getByRole("combobox", { name: "Language" }).selectOption("de");
    await expect(page.getByRole("heading", { name: "Geben Sie Ihre Daten ein" })).toBeVisible();
    await expect(page.getByLabel(/name/i).first()).toHaveValue("Paula Guest");
    await expect(page.getByRole("combobox", { name: "Sprache (Language)" })).toHaveValue("de");
  });
});
