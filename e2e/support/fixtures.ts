import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { expect, test as base, type BrowserContext, type Page } from "@playwright/test";
import { expectNoSidewaysScroll } from "./page-checks";

// What the dashboard's specs set up again and again, written once: hosts registered through the
// API (on the suite's server, or a spec's own `npm start`), signed in through the login form, a
// host's hours, event types and teams, and the pictures of a page at a desktop's and a phone's
// width. Specs import `test` and `expect` from here instead of @playwright/test.

export { expect };

/** A host registered through the API, with a bearer token of theirs; `site` is the server they live on. */
export type Host = {
  username: string;
  email: string;
  password: string;
  fullName: string;
  timezone: string;
  token: string;
  /** `{ authorization: "Bearer …" }`, for requests of the spec's own. */
  auth: Record<string, string>;
  site: string;
};

export type HostFields = {
  fullName?: string;
  timezone?: string;
  /** The start of the username (a random part follows); default the first name, lower case. */
  prefix?: string;
  password?: string;
  /** The server to register on (a spec's own `npm start`); default the suite's. */
  site?: string;
};

type Fixtures = {
  /** Where `shoot` puts its pictures. */
  shotsDir: string;
  /** At 1280 and 390 px: no sideways scroll, and a full-page picture of each (`name.png`, `name-390.png`); back at 1280 after. */
  shoot: (page: Page, name: string) => Promise<void>;
  /** Registers a host through the API and logs them in for a token. */
  registerHost: (fields?: HostFields) => Promise<Host>;
  /**
   * Signs a host in through the login form, on `page` or else a page of a new browser context in
   * the test's zone and language, and waits for the dashboard's greeting. `site`: the address the
   * browser uses (default the host's server).
   */
  signIn: (host: Host, options?: { page?: Page; site?: string }) => Promise<Page>;
  /** A page of a new browser context in the test's zone and language (another person's browser). */
  newPage: () => Promise<Page>;
  /** What the `host` fixture registers. */
  hostFields: HostFields;
  /** A host registered on the suite's server and signed in on `page`. */
  host: Host;
};

// Each fixture hands its value on with `provide` (Playwright's `use`, renamed: the React hooks
// rule of the lint reads any call of `use` as React's).
export const test = base.extend<Fixtures>({
  shotsDir: ["e2e/screenshots", { option: true }],
  shoot: async ({ shotsDir }, provide) => {
    mkdirSync(shotsDir, { recursive: true });
    await provide(async (page, name) => {
      for (const [width, suffix] of [[1280, ""], [390, "-390"]] as const) {
        await page.setViewportSize({ width, height: 900 });
        await page.waitForTimeout(150);
        await expectNoSidewaysScroll(page);
        await page.screenshot({ path: `${shotsDir}/${name}${suffix}.png`, fullPage: true });
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    });
  },
  registerHost: async ({ baseURL }, provide) => {
    await provide((fields = {}) => registerHost({ site: baseURL!, ...fields }));
  },
  newPage: async ({ browser, timezoneId, locale }, provide) => {
    const contexts: BrowserContext[] = [];
    await provide(async () => {
      const context = await browser.newContext({ timezoneId, locale });
      contexts.push(context);
      return context.newPage();
    });
    for (const context of contexts) await context.close();
  },
  signIn: async ({ newPage }, provide) => {
    await provide(async (host, options = {}) => {
      const page = options.page ?? (await newPage());
      await page.goto(`${options.site ?? host.site}/login`);
      await page.getByLabel("Email").fill(host.email);
      await page.getByLabel("Password").fill(host.password);
      await page.getByRole("button", { name: "Log in" }).click();
      await expect(page.getByRole("heading", { name: `Hello, ${host.fullName}` })).toBeVisible();
      return page;
    });
  },
  hostFields: [{}, { option: true }],
  host: async ({ registerHost, signIn, page, hostFields }, provide) => {
    const host = await registerHost(hostFields);
    await signIn(host, { page });
    await provide(host);
  },
});

/** A request to `site`'s API as the host (or as nobody): its status and its JSON body. */
export async function callApi(site: string, method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const res = await fetch(`${site}/api/v1${path}`, {
    method,
    headers: { "content-type": "application/json", ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Registers a host on `site` through the API and logs them in for a token. */
export async function registerHost(fields: HostFields & { site: string }): Promise<Host> {
  const fullName = fields.fullName ?? "Test Host";
  const prefix = fields.prefix ?? fullName.split(" ")[0]!.toLowerCase().replace(/[^a-z0-9]/g, "");
  const username = `${prefix}-${randomUUID().slice(0, 8)}`;
  const person = { username, email: `${username}@example.com`, password: fields.password ?? "correct horse battery", fullName, timezone: fields.timezone ?? "UTC" };
  const registered = await callApi(fields.site, "POST", "/auth/register", { body: person });
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  const login = await callApi(fields.site, "POST", "/auth/login", { body: { email: person.email, password: person.password } });
  expect(login.status).toBe(200);
  const token = login.body.accessToken as string;
  return { ...person, token, auth: { authorization: `Bearer ${token}` }, site: fields.site };
}

/** A request to the host's server as the host; `status` is what it must answer. */
export async function asHost(host: Host, method: string, path: string, body: unknown, status: number) {
  const res = await callApi(host.site, method, path, { token: host.token, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body;
}

/** The host's hours: weekly rules and date overrides, bookable without notice. */
export async function setHours(
  host: Host,
  hours: { weeklyRules?: { dayOfWeek: number; startTime: string; endTime: string }[]; dateOverrides?: unknown[]; maxAdvanceDays?: number },
): Promise<void> {
  await asHost(host, "PUT", "/me/availability", { minNoticeHours: 0, maxAdvanceDays: 60, weeklyRules: [], dateOverrides: [], ...hours }, 200);
}

/** The host open on `date` (in their zone) from `from` to `to` and on no other day. */
export async function openDay(host: Host, date: string, [from, to]: [string, string], maxAdvanceDays = 60): Promise<void> {
  await setHours(host, { maxAdvanceDays, dateOverrides: [{ date, available: true, intervals: [{ startTime: from, endTime: to }] }] });
}

/** The host open every day of the week from `from` to `to`. */
export async function openEveryDay(host: Host, [from, to]: [string, string]): Promise<void> {
  await setHours(host, { weeklyRules: [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ dayOfWeek, startTime: from, endTime: to })) });
}

export async function createEventType(host: Host, data: Record<string, unknown>): Promise<{ id: string; slug: string }> {
  return asHost(host, "POST", "/me/event-types", data, 201);
}

/** A team of `owner`'s with `members` invited and accepted (each through the API, as they would). */
export async function createTeam(owner: Host, data: { slug: string; name: string }, members: Host[] = []): Promise<{ id: string; slug: string }> {
  const team = await asHost(owner, "POST", "/me/teams", data, 201);
  for (const member of members) {
    await asHost(owner, "POST", `/me/teams/${team.id}/members`, { username: member.username }, 201);
    await asHost(member, "POST", `/me/teams/${team.id}/accept`, undefined, 200);
  }
  return team;
}

export async function createTeamEventType(owner: Host, teamId: string, data: Record<string, unknown>): Promise<{ id: string; slug: string }> {
  return asHost(owner, "POST", `/me/teams/${teamId}/event-types`, data, 201);
}
