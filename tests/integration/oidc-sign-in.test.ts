import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { userIdentities, users } from "@/db/schema";
import { sessionCookieName } from "@/lib/auth/session";
import { getConfig, setConfig, type Config } from "@/lib/config";
import { getDb } from "@/lib/store/database";
import { api, callSite, TEST_ORIGIN, type ApiResponse } from "../support/api";
import { withTestDatabase } from "../support/database";
import { createHost, unique } from "../support/factories";
import { startOidcProvider, type LocalOidcProvider, type OidcPerson } from "../support/oidc-provider";

// Company sign-in (decisions §22) against a real OpenID provider on loopback: the whole dance
// over HTTP, next-auth's handler in-process (app/api/auth/[...nextauth]/route.ts), openid-client
// talking to the provider for discovery, the token, its keys and userinfo.

withTestDatabase();

let idp: LocalOidcProvider;
let original: Config;

function configure(changes: { signup?: boolean; passwordLogin?: boolean } = {}) {
  setConfig({
    ...original,
    oidc: {
      issuer: idp.issuer,
      discoveryUrl: `${idp.issuer}/.well-known/openid-configuration`,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      name: "Acme SSO",
      signup: changes.signup ?? true,
    },
    passwordLogin: changes.passwordLogin ?? true,
  });
}

beforeAll(async () => {
  original = getConfig();
  idp = await startOidcProvider({ redirectUris: [`${TEST_ORIGIN}/api/auth/callback/oidc`] });
});
afterAll(async () => {
  setConfig(original);
  await idp.close();
});
beforeEach(() => configure());

/** A browser at the app: its cookies, kept the way a browser keeps them. */
class Browser {
  readonly jar = new Map<string, string>();

  cookieHeader(): string {
    return [...this.jar].map(([n, v]) => `${n}=${v}`).join("; ");
  }

  keep(res: ApiResponse) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  async get(pathAndQuery: string, cookieHeader = this.cookieHeader()) {
    const res = await callSite("GET", pathAndQuery, { headers: { cookie: cookieHeader } });
    this.keep(res);
    return res;
  }

  /** next-auth's sign-in as the button starts it: its CSRF token, then a POST; the provider's URL comes back. */
  async startSignIn(callbackUrl = "/dashboard"): Promise<string> {
    const csrf = await this.get("/api/auth/csrf");
    const res = await callSite("POST", "/api/auth/signin/oidc", {
      headers: { cookie: this.cookieHeader(), "content-type": "application/x-www-form-urlencoded" },
      rawBody: new URLSearchParams({ csrfToken: csrf.body.csrfToken, callbackUrl, json: "true" }).toString(),
    });
    this.keep(res);
    expect(res.status).toBe(200);
    return res.body.url as string;
  }

  /** Follows the app's redirects while they stay within next-auth's routes; the last answer. */
  async follow(res: ApiResponse): Promise<URL> {
    let location = new URL(res.headers.get("location")!, TEST_ORIGIN);
    while (location.origin === TEST_ORIGIN && location.pathname.startsWith("/api/auth/")) {
      const next = await this.get(`${location.pathname}${location.search}`);
      expect(next.status).toBe(302);
      location = new URL(next.headers.get("location")!, TEST_ORIGIN);
    }
    return location;
  }

  /** The whole sign-in as `person`: where the browser ends up. */
  async signIn(person: OidcPerson, callbackUrl = "/dashboard"): Promise<URL> {
    idp.addPerson(person);
    const back = await idp.signIn(await this.startSignIn(callbackUrl), person.sub);
    return this.follow(await this.get(`${back.pathname}${back.search}`));
  }

  session(): string | undefined {
    return this.jar.get(sessionCookieName());
  }

  me() {
    return api.get("/me", { headers: { cookie: this.cookieHeader() } });
  }
}

const person = (overrides: Partial<OidcPerson> = {}): OidcPerson => {
  const sub = unique("sub");
  return { sub, email: `${sub}@acme.test`, email_verified: true, name: "Ada Lovelace", zoneinfo: "Europe/London", locale: "de-DE", ...overrides };
};

const identitiesOf = async (userId: string) => (await getDb()).select().from(userIdentities).where(eq(userIdentities.userId, userId));
const userByEmail = async (email: string) => (await (await getDb()).select().from(users).where(eq(users.email, email)))[0];

/** A host whose email was confirmed here (by an email change's link, or an earlier company sign-in). */
async function confirmedHost() {
  const host = await createHost();
  await (await getDb()).update(users).set({ emailVerified: true }).where(eq(users.id, host.id));
  return host;
}

describe("company sign-in (OIDC)", () => {
  it("a first sign-in creates a host (username from the email, the provider's name, zone and language, no password), and the cookie works on the API", async () => {
    const browser = new Browser();
    const ada = person({ email: `Ada.Lovelace+${unique("x")}@Acme.test` });
    const landed = await browser.signIn(ada);
    expect(landed.href).toBe(`${TEST_ORIGIN}/dashboard`);
    expect(browser.session()).toBeTruthy();

    const me = await browser.me();
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: ada.email!.toLowerCase(), fullName: "Ada Lovelace", timezone: "Europe/London" });
    expect(me.body.username).toMatch(/^ada-lovelace-x/);
    const row = await userByEmail(ada.email!.toLowerCase());
    expect(row).toMatchObject({ passwordHash: null, language: "de", emailVerified: true });
    const linked = await identitiesOf(row!.id);
    expect(linked).toEqual([expect.objectContaining({ issuer: idp.issuer, subject: ada.sub, email: ada.email!.toLowerCase() })]);
    expect(linked[0]!.id).toMatch(/^idn_/);

    // The same person again: the same host, by the identity.
    const again = new Browser();
    await again.signIn(ada);
    expect((await again.me()).body.id).toBe(me.body.id);

    // Two people with the same local part get different usernames.
    const twin = await new Browser().signIn(person({ email: `ada.lovelace+${unique("x")}@other.test` }));
    expect(twin.pathname).toBe("/dashboard");
  });

  it("links to the host with the same verified email; later the identity finds it even after the email changed at the provider", async () => {
    const host = await confirmedHost();
    const browser = new Browser();
    const same = person({ email: host.email });
    await browser.signIn(same);
    expect((await browser.me()).body.id).toBe(host.id);
    expect(await identitiesOf(host.id)).toHaveLength(1);

    const renamed = { ...same, email: `${unique("renamed")}@acme.test` };
    const later = new Browser();
    await later.signIn(renamed);
    expect((await later.me()).body.id).toBe(host.id);
    expect((await identitiesOf(host.id))[0]!.email).toBe(renamed.email);
    // The password still works beside it.
    expect((await api.post("/auth/login", { email: host.email, password: host.password })).status).toBe(200);
  });

  it("an account whose email was never confirmed here loses its password and sessions when the inbox's owner signs in (no pre-account takeover)", async () => {
    // Someone opened an account with this address before its owner arrived.
    const squatter = await createHost();
    const owner = new Browser();
    await owner.signIn(person({ email: squatter.email }));
    expect((await owner.me()).body.id).toBe(squatter.id);
    expect(await userByEmail(squatter.email)).toMatchObject({ passwordHash: null, emailVerified: true });
    // The password typed at registration and the tokens it gave no longer get in.
    expect((await api.post("/auth/login", { email: squatter.email, password: squatter.password })).status).toBe(401);
    expect((await api.get("/me", { token: squatter.token })).status).toBe(401);
    expect((await owner.me()).status).toBe(200);
  });

  it("an unverified email never signs into an existing account, and never creates one", async () => {
    const host = await createHost();
    const browser = new Browser();
    const landed = await browser.signIn(person({ email: host.email, email_verified: false }));
    expect(landed.pathname).toBe("/login");
    expect(landed.searchParams.get("error")).toBe("OidcEmailUnverified");
    expect(browser.session()).toBeUndefined();
    expect(await identitiesOf(host.id)).toEqual([]);

    const stranger = person({ email_verified: false });
    expect((await new Browser().signIn(stranger)).searchParams.get("error")).toBe("OidcEmailUnverified");
    expect(await userByEmail(stranger.email!)).toBeUndefined();
    // A provider that sends no email at all.
    expect((await new Browser().signIn(person({ email: undefined }))).searchParams.get("error")).toBe("OidcNoEmail");
  });

  it("OIDC_SIGNUP=off refuses an unknown email but still signs in a known one", async () => {
    configure({ signup: false });
    const stranger = person();
    const landed = await new Browser().signIn(stranger);
    expect(landed.pathname).toBe("/login");
    expect(landed.searchParams.get("error")).toBe("OidcSignupOff");
    expect(await userByEmail(stranger.email!)).toBeUndefined();

    const host = await createHost();
    const browser = new Browser();
    await browser.signIn(person({ email: host.email }));
    expect((await browser.me()).body.id).toBe(host.id);
  });

  it("refuses a forged callback: a wrong state, a tampered code, or no state cookie", async () => {
    const ada = person();
    idp.addPerson(ada);
    const refusedAt = async (browser: Browser, back: URL) => {
      const landed = await browser.follow(await browser.get(`${back.pathname}${back.search}`));
      expect(landed.pathname).toBe("/login");
      expect(landed.searchParams.get("error")).toBe("OAuthCallback");
      expect(browser.session()).toBeUndefined();
    };

    const wrongState = new Browser();
    const back1 = await idp.signIn(await wrongState.startSignIn(), ada.sub);
    back1.searchParams.set("state", "forged-state");
    await refusedAt(wrongState, back1);

    const tamperedCode = new Browser();
    const back2 = await idp.signIn(await tamperedCode.startSignIn(), ada.sub);
    back2.searchParams.set("code", `${back2.searchParams.get("code")}x`);
    await refusedAt(tamperedCode, back2);

    // Someone else's callback URL, opened in a browser that never started a sign-in (login CSRF).
    const starter = new Browser();
    const back3 = await idp.signIn(await starter.startSignIn(), ada.sub);
    await refusedAt(new Browser(), back3);

    expect(await userByEmail(ada.email!)).toBeUndefined();
  });

  it("refuses a replayed callback: the same code twice, with the same cookies", async () => {
    const ada = person();
    idp.addPerson(ada);
    const browser = new Browser();
    const back = await idp.signIn(await browser.startSignIn(), ada.sub);
    const cookiesBefore = browser.cookieHeader();
    const first = await browser.follow(await browser.get(`${back.pathname}${back.search}`));
    expect(first.pathname).toBe("/dashboard");

    const replay = new Browser();
    const res = await replay.get(`${back.pathname}${back.search}`, cookiesBefore);
    const landed = await replay.follow(res);
    expect(landed.pathname).toBe("/login");
    expect(landed.searchParams.get("error")).toBe("OAuthCallback");
    expect(replay.session()).toBeUndefined();
  });

  it("sign-out ends the OIDC session like any other (the session version)", async () => {
    const browser = new Browser();
    await browser.signIn(person());
    expect((await browser.me()).status).toBe(200);
    const out = await api.post("/auth/logout", undefined, { headers: { cookie: browser.cookieHeader(), origin: TEST_ORIGIN } });
    expect(out.status).toBe(204);
    expect((await browser.me()).status).toBe(401);
  });

  it("links from settings: a signed-in host's sign-in links the identity to them, unless it is another host's", async () => {
    const host = await createHost();
    const browser = new Browser();
    // Signed in with the password through next-auth's credentials sign-in (same handler).
    const csrf = await browser.get("/api/auth/csrf");
    const signedIn = await callSite("POST", "/api/auth/callback/credentials", {
      headers: { cookie: browser.cookieHeader(), "content-type": "application/x-www-form-urlencoded" },
      rawBody: new URLSearchParams({ csrfToken: csrf.body.csrfToken, email: host.email, password: host.password, json: "true" }).toString(),
    });
    browser.keep(signedIn);
    expect((await browser.me()).body.id).toBe(host.id);

    const work = person({ email: `${unique("work")}@acme.test` });
    const landed = await browser.signIn(work, "/dashboard/settings");
    expect(landed.pathname).toBe("/dashboard/settings");
    expect((await browser.me()).body.id).toBe(host.id);
    expect((await identitiesOf(host.id)).map((i) => i.subject)).toEqual([work.sub]);
    expect(await userByEmail(work.email!)).toBeUndefined();

    // Another host trying to link the same identity is refused, on their settings page.
    const other = await createHost();
    const otherBrowser = new Browser();
    const otherCsrf = await otherBrowser.get("/api/auth/csrf");
    otherBrowser.keep(
      await callSite("POST", "/api/auth/callback/credentials", {
        headers: { cookie: otherBrowser.cookieHeader(), "content-type": "application/x-www-form-urlencoded" },
        rawBody: new URLSearchParams({ csrfToken: otherCsrf.body.csrfToken, email: other.email, password: other.password, json: "true" }).toString(),
      }),
    );
    const refused = await otherBrowser.signIn(work, "/dashboard/settings");
    expect(refused.pathname).toBe("/dashboard/settings");
    expect(refused.searchParams.get("error")).toBe("OidcIdentityTaken");
    expect((await otherBrowser.me()).body.id).toBe(other.id);
    expect(await identitiesOf(other.id)).toEqual([]);
  });
});

describe("the identities in settings (GET, DELETE /me/identities)", () => {
  it("lists them; unlinking the last way in is 409 with words, another host's is 404, a password host's is 204", async () => {
    const oidcOnly = new Browser();
    const ada = person();
    await oidcOnly.signIn(ada);
    const cookie = { headers: { cookie: oidcOnly.cookieHeader(), origin: TEST_ORIGIN } };
    const list = await api.get("/me/identities", cookie);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ hasPassword: false, passwordLogin: true, oidc: { name: "Acme SSO" } });
    expect(list.body.data).toEqual([
      { id: expect.stringMatching(/^idn_/), provider: "Acme SSO", issuer: idp.issuer, email: ada.email, createdAt: expect.any(String), lastUsedAt: expect.any(String) },
    ]);
    const only = list.body.data[0].id as string;

    const last = await api.delete(`/me/identities/${only}`, cookie);
    expect(last.status).toBe(409);
    expect(last.body).toMatchObject({ error: "conflict", message: expect.stringContaining("set a password first") });

    const host = await confirmedHost();
    expect((await api.delete(`/me/identities/${only}`, { token: host.token })).status).toBe(404);
    expect((await api.get("/me/identities", { token: host.token })).body).toMatchObject({ data: [], hasPassword: true });

    const browser = new Browser();
    await browser.signIn(person({ email: host.email }));
    const [mine] = (await api.get("/me/identities", { token: host.token })).body.data as { id: string }[];
    expect((await api.delete(`/me/identities/${mine!.id}`, { token: host.token })).status).toBe(204);
    expect(await identitiesOf(host.id)).toEqual([]);
    expect(await identitiesOf((await userByEmail(ada.email!))!.id)).toHaveLength(1);
  });

  it("a host without a password: password login is refused like a wrong one, and the password change says to use the reset link", async () => {
    const browser = new Browser();
    const ada = person();
    await browser.signIn(ada);
    const login = await api.post("/auth/login", { email: ada.email, password: "anything at all" });
    expect(login.status).toBe(401);
    expect(login.body.message).toBe("The email or password is incorrect");

    const change = await api.post("/me/password", { currentPassword: "whatever1", newPassword: "a new password" }, { headers: { cookie: browser.cookieHeader(), origin: TEST_ORIGIN } });
    expect(change.status).toBe(400);
    expect(change.body.details.issues[0]).toMatchObject({ path: "currentPassword", message: expect.stringContaining("Forgot your password?") });
  });
});

describe("PASSWORD_LOGIN=off", () => {
  it("the password routes answer 403 with the words and change nothing; next-auth offers only the company sign-in", async () => {
    const host = await confirmedHost();
    configure({ passwordLogin: false });
    const message = "Password sign-in is turned off on this server: sign in with Acme SSO";

    const login = await api.post("/auth/login", { email: host.email, password: host.password });
    expect(login.status).toBe(403);
    expect(login.body).toMatchObject({ error: "forbidden", message });
    // Whatever the body: the route cannot work at all.
    expect((await api.post("/auth/login", { nonsense: true })).status).toBe(403);

    const email = `${unique("new")}@example.com`;
    const register = await api.post("/auth/register", { email, password: "correct horse battery", fullName: "New", username: unique("new"), timezone: "UTC" });
    expect(register).toMatchObject({ status: 403, body: { error: "forbidden", message } });
    expect(await userByEmail(email)).toBeUndefined();

    expect((await api.post("/auth/password-reset", { email: host.email })).status).toBe(403);
    expect((await api.post("/auth/password-reset/confirm", { token: "x".repeat(43), newPassword: "a new password" })).status).toBe(403);
    const change = await api.post("/me/password", { currentPassword: host.password, newPassword: "a new password" }, { token: host.token });
    expect(change).toMatchObject({ status: 403, body: { message } });

    const providers = await callSite("GET", "/api/auth/providers");
    expect(Object.keys(providers.body)).toEqual(["oidc"]);
    expect(providers.body.oidc).toMatchObject({ id: "oidc", name: "Acme SSO", type: "oauth" });

    // The last identity of a host with a password cannot go either: the password no longer signs in.
    const browser = new Browser();
    await browser.signIn(person({ email: host.email }));
    const [mine] = (await api.get("/me/identities", { token: host.token })).body.data as { id: string }[];
    const unlink = await api.delete(`/me/identities/${mine!.id}`, { token: host.token });
    expect(unlink.status).toBe(409);
    expect(unlink.body.message).toContain("passwords are turned off on this server");
  });

  it("with passwords on, next-auth offers both", async () => {
    const providers = await callSite("GET", "/api/auth/providers");
    expect(Object.keys(providers.body).sort()).toEqual(["credentials", "oidc"]);
  });
});
