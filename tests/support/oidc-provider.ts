import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type Configuration } from "oidc-provider";

// A real OpenID provider (panva's `oidc-provider`, the certified implementation) on a random
// loopback port, for the company sign-in tests (decisions §22): discovery, signed ID tokens,
// PKCE, nonce, single-use codes, userinfo. People are set up per test; its development login
// form takes any password, and the login is the person's `sub`. Consent is granted without a
// page, as a company's own provider does for its own apps.

export type OidcPerson = { sub: string; email?: string; email_verified?: boolean; name?: string; zoneinfo?: string; locale?: string };

export type LocalOidcProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Sets (or replaces) who can sign in; the login at the provider is `sub`. */
  addPerson(person: OidcPerson): void;
  /**
   * A user agent at the provider: follows the authorization URL, signs in as `sub` on the login
   * form and returns where the provider sends the browser back (the app's callback, with code
   * and state), without following it.
   */
  signIn(authorizationUrl: string, sub: string): Promise<URL>;
  close(): Promise<void>;
};

export async function startOidcProvider(options: { redirectUris: string[]; port?: number }): Promise<LocalOidcProvider> {
  const people = new Map<string, OidcPerson>();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = "booking-test";
  const clientSecret = randomBytes(24).toString("base64url");
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: "jwk" }), kid: "test-key", use: "sig", alg: "RS256" } as never] },
    cookies: { keys: [randomBytes(16).toString("hex")] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "zoneinfo", "locale"] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    // Explicit lifetimes: the provider's defaults print a notice each.
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    async findAccount(_ctx, sub) {
      const person = people.get(sub);
      if (!person) return undefined;
      return { accountId: sub, claims: () => ({ ...person }) };
    },
    async loadExistingGrant(ctx) {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, configuration);
  // The provider's own console warnings (development keys, http issuer) are expected here.
  provider.on("server_error", () => undefined);
  server.on("request", provider.callback());

  return {
    issuer,
    clientId,
    clientSecret,
    addPerson: (person) => void people.set(person.sub, person),
    signIn: (authorizationUrl, sub) => signInAtProvider(issuer, authorizationUrl, sub),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Follows the provider's redirects with its cookies, posts the login form, stops at the first redirect away from it. */
async function signInAtProvider(issuer: string, authorizationUrl: string, sub: string): Promise<URL> {
  const jar = new Map<string, string>();
  const remember = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
  };
  const cookie = () => [...jar].map(([n, v]) => `${n}=${v}`).join("; ");
  let url = new URL(authorizationUrl);
  for (let hop = 0; hop < 10; hop++) {
    if (url.origin !== issuer) return url;
    const interaction = /^\/interaction\/[^/]+$/.test(url.pathname);
    const res = await fetch(url, {
      redirect: "manual",
      method: interaction ? "POST" : "GET",
      headers: { cookie: cookie(), ...(interaction ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      body: interaction ? new URLSearchParams({ prompt: "login", login: sub, password: "any" }).toString() : undefined,
    });
    remember(res);
    const location = res.headers.get("location");
    if (!location) throw new Error(`the provider answered ${res.status} at ${url.pathname}: ${(await res.text()).slice(0, 300)}`);
    url = new URL(location, url);
  }
  throw new Error("the provider redirected too many times");
}
