import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { hasChromium } from "../playwright.config";
import { startOidcProvider, type LocalOidcProvider, type OidcPerson } from "../tests/support/oidc-provider";
import { expectAccessible } from "./support/page-checks";
import { nextPorts, post, start } from "./support/server";

// Company sign-in (decisions §22) in Chromium, against a real OpenID provider (oidc-provider) and
// two servers of their own: one with passwords beside it, one with PASSWORD_LOGIN=off. The login
// page's button goes to the provider's login form and back, signed in; Settings → Sign-in shows
// the identity, refuses to unlink an OIDC-only host's last one (in words), links one to a password
// host and unlinks it.

test.skip(!hasChromium, "Chromium is not installed at /usr/bin/chromium (apt-get install chromium); skipping browser tests");
test.use({ timezoneId: "Europe/Berlin", locale: "en-US" });

const SHOTS = process.env.OIDC_SHOTS ?? "e2e/screenshots";
const NAME = "Acme SSO";

let idp: LocalOidcProvider;
let withPasswords: Awaited<ReturnType<typeof start>>;
let oidcOnly: Awaited<ReturnType<typeof start>>;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  // The provider must know each server's redirect URI before the servers start: the ports the
  // next two start() calls give (after every other spec's servers in this worker).
  idp = await startOidcProvider({ redirectUris: nextPorts(2).map((port) => `http://127.0.0.1:${port}/api/auth/callback/oidc`) });
  const settings = (port: number, extra: Record<string, string> = {}) => ({
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "booking-oidc-")),
    JWT_SECRET: randomBytes(32).toString("hex"),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: idp.clientId,
    OIDC_CLIENT_SECRET: idp.clientSecret,
    OIDC_NAME: NAME,
    ...extra,
  });
  withPasswords = await start((port) => settings(port));
  oidcOnly = await start((port) => settings(port, { PASSWORD_LOGIN: "off" }));
});

test.afterAll(async () => {
  await withPasswords?.stop();
  await oidcOnly?.stop();
  await idp?.close();
});

/** The page at a desktop's and a phone's width, photographed whole; nothing scrolls sideways. */
async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(scroll, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(client);
    await page.screenshot({ path: `${SHOTS}/oidc-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The Sign-in section alone, at both widths, to look at closely. */
async function shootSection(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole("region", { name: "Sign-in" }).screenshot({ path: `${SHOTS}/oidc-${name}-section-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const person = (email = `${randomUUID().slice(0, 8)}@acme.test`): OidcPerson => ({ sub: randomUUID(), email, email_verified: true, name: "Ada Lovelace" });

/** The provider's own login form (its development interactions): the login is the person's sub. */
async function signInAtProvider(page: Page, who: OidcPerson) {
  await page.waitForURL(`${idp.issuer}/**`);
  await page.locator('input[name="login"]').fill(who.sub);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
}

async function newPage(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: "Europe/Berlin", locale: "en-US" });
  return context.newPage();
}

test("the login page's button signs in through the provider; settings shows the identity and will not unlink the only way in", async ({ page }) => {
  await page.goto(`${withPasswords.url}/login`);
  await expect(page.getByRole("button", { name: NAME })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Email" })).toBeVisible();
  await expectAccessible(page);
  await shoot(page, "login-both");

  const ada = person();
  idp.addPerson(ada);
  await page.getByRole("button", { name: NAME }).click();
  await signInAtProvider(page, ada);
  await page.waitForURL(`${withPasswords.url}/dashboard`);
  await expect(page.getByRole("link", { name: "Settings" }).first()).toBeVisible();

  await page.goto(`${withPasswords.url}/dashboard/settings`);
  const section = page.getByRole("region", { name: "Sign-in" });
  await expect(section.getByRole("listitem").filter({ hasText: ada.email! })).toBeVisible();
  await expect(section.getByText(/^Linked \w{3}, \w{3} \d{1,2}, \d{4} · \d{1,2}:\d{2} [AP]M · last used/)).toBeVisible();
  await expect(page.getByRole("region", { name: "Password" })).toContainText("Your account has no password");
  await expectAccessible(page);

  await section.getByRole("button", { name: /^Unlink/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Unlink" }).click();
  await expect(section.getByRole("alert")).toContainText("This is your only way to sign in: set a password first");
  await expect(section.getByRole("listitem").filter({ hasText: ada.email! })).toBeVisible();
  await section.scrollIntoViewIfNeeded();
  await shoot(page, "settings-oidc-only");
  await shootSection(page, "settings-oidc-only");
  // Without a password there is nothing to confirm a change of address with.
  await expect(page.getByRole("heading", { name: "Change email" })).toHaveCount(0);
});

test("a password host links the company sign-in in settings, then unlinks it", async ({ browser }) => {
  const username = `pw${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  const password = "correct horse battery";
  expect((await post(`${withPasswords.url}/api/v1/auth/register`, { email, password, fullName: "Grace Hopper", username, timezone: "Europe/Berlin" })).status).toBe(201);

  const page = await newPage(browser);
  await page.goto(`${withPasswords.url}/login`);
  await page.getByRole("textbox", { name: "Email" }).fill(email);
  await page.getByRole("textbox", { name: "Password" }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.waitForURL(`${withPasswords.url}/dashboard`);

  await page.goto(`${withPasswords.url}/dashboard/settings`);
  const section = page.getByRole("region", { name: "Sign-in" });
  await expect(section).toContainText(`No ${NAME} account is linked yet.`);
  const work = person(`grace.${randomUUID().slice(0, 6)}@acme.test`);
  idp.addPerson(work);
  await section.getByRole("button", { name: `Link ${NAME}` }).click();
  await signInAtProvider(page, work);
  await page.waitForURL(`${withPasswords.url}/dashboard/settings?linked=1`);
  await expect(section.getByRole("status").filter({ hasText: `${NAME} is linked` })).toBeVisible();
  await expect(section.getByRole("listitem").filter({ hasText: work.email! })).toBeVisible();
  await shoot(page, "settings-linked");
  await shootSection(page, "settings-linked");

  await section.getByRole("button", { name: /^Unlink/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Unlink" }).click();
  await expect(section.getByRole("listitem")).toHaveCount(0);
  await expect(section).toContainText(`No ${NAME} account is linked yet.`);
  await page.context().close();
});

test("PASSWORD_LOGIN=off: the login page has only the company sign-in, the password pages say so, and the button signs in", async ({ browser }) => {
  const page = await newPage(browser);
  await page.goto(`${oidcOnly.url}/login`);
  await expect(page.getByRole("button", { name: NAME })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Email" })).toHaveCount(0);
  await expect(page.getByRole("textbox", { name: "Password" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Create an account" })).toHaveCount(0);
  await expect(page.getByText(`Passwords are turned off on this server: everyone signs in with ${NAME}.`)).toBeVisible();
  await expectAccessible(page);
  await shoot(page, "login-oidc-only");

  for (const pagePath of ["/register", "/forgot-password", "/reset-password/some-token"]) {
    await page.goto(`${oidcOnly.url}${pagePath}`);
    await expect(page.getByRole("status")).toContainText("Passwords are turned off on this server");
    await expect(page.getByRole("textbox")).toHaveCount(0);
  }
  await expectAccessible(page);

  // A refusal comes back in words, never a code.
  await page.goto(`${oidcOnly.url}/login?error=OAuthCallback`);
  await expect(page.getByRole("alert").filter({ hasText: "Signing in" })).toHaveText(`Signing in with ${NAME} did not finish. It may have taken too long, or the page was opened twice. Please try again.`);

  const ada = person();
  idp.addPerson(ada);
  await page.goto(`${oidcOnly.url}/login`);
  await page.getByRole("button", { name: NAME }).click();
  await signInAtProvider(page, ada);
  await page.waitForURL(`${oidcOnly.url}/dashboard`);
  await page.goto(`${oidcOnly.url}/dashboard/settings`);
  await expect(page.getByRole("region", { name: "Sign-in" }).getByRole("listitem").filter({ hasText: ada.email! })).toBeVisible();
  // No password form where passwords are off.
  await expect(page.getByRole("region", { name: "Password" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Change password" })).toHaveCount(0);
  await page.context().close();
});
