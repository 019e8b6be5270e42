import "server-only";
import type { OidcConfig } from "@/lib/config";
import { errorText, type Check, type Finding } from "./types";

// Company sign-in (decisions §22): the OpenID provider's discovery document, as next-auth reads it
// at every sign-in. Off is a choice (passwords work); on, a document that cannot be fetched, names
// another issuer or lacks an endpoint means nobody gets in with it. The client is checked the way
// the calendar providers' are: a token request with a code that cannot exist, which a provider
// answers `invalid_grant` for a client it knows and `invalid_client` for one it does not.

const REQUIRED = ["authorization_endpoint", "token_endpoint", "jwks_uri"] as const;

type Discovery = Partial<Record<(typeof REQUIRED)[number] | "issuer" | "userinfo_endpoint", unknown>>;

async function fetchDiscovery(oidc: OidcConfig, signal: AbortSignal): Promise<Discovery | Finding> {
  const fix = `check OIDC_ISSUER: ${oidc.discoveryUrl} must answer the provider's OpenID configuration`;
  let res: Response;
  try {
    res = await fetch(oidc.discoveryUrl, { signal, headers: { accept: "application/json" } });
  } catch (error) {
    return { status: "fail", finding: `the discovery document ${oidc.discoveryUrl} could not be fetched (${errorText(error)}): nobody can sign in with ${oidc.name}`, fix };
  }
  if (!res.ok) return { status: "fail", finding: `${oidc.discoveryUrl} answered ${res.status}: nobody can sign in with ${oidc.name}`, fix };
  const body: unknown = await res.json().catch(() => undefined);
  if (!body || typeof body !== "object") return { status: "fail", finding: `${oidc.discoveryUrl} did not answer a JSON document`, fix };
  return body as Discovery;
}

/** What is wrong with the document, or undefined. */
function documentProblem(oidc: OidcConfig, doc: Discovery): Finding | undefined {
  if (doc.issuer !== oidc.issuer) {
    return {
      status: "fail",
      finding: `the discovery document names the issuer ${JSON.stringify(doc.issuer)}, OIDC_ISSUER is ${JSON.stringify(oidc.issuer)}: every sign-in would be refused`,
      fix: typeof doc.issuer === "string" ? `set OIDC_ISSUER to exactly ${doc.issuer}` : "point OIDC_ISSUER at the provider's issuer",
    };
  }
  const missing = REQUIRED.filter((field) => typeof doc[field] !== "string" || doc[field] === "");
  if (missing.length > 0) return { status: "fail", finding: `the discovery document has no ${missing.join(", ")}: sign-in cannot work`, fix: "check OIDC_ISSUER names an OpenID Connect provider" };
  return undefined;
}

async function clientFinding(oidc: OidcConfig, tokenEndpoint: string, redirectUri: string, signal: AbortSignal): Promise<Finding> {
  const ok: Finding = { status: "ok", finding: `on: ${oidc.issuer} is discovered (authorization, token and key endpoints) and knows the client; redirect URI ${redirectUri}` };
  try {
    const res = await fetch(tokenEndpoint, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(oidc.clientId)}:${encodeURIComponent(oidc.clientSecret)}`).toString("base64")}`,
      },
      body: new URLSearchParams({ grant_type: "authorization_code", code: "doctor-check", redirect_uri: redirectUri, code_verifier: "doctor-check-".padEnd(50, "x") }),
      signal,
    });
    const body = (await res.json().catch(() => ({}))) as { error?: unknown };
    if (body.error === "invalid_client" || body.error === "unauthorized_client") {
      return { status: "fail", finding: `the provider refuses OIDC_CLIENT_ID or OIDC_CLIENT_SECRET (${body.error}): nobody can sign in with ${oidc.name}`, fix: "copy the client id and secret again from the provider's console (client authentication: client_secret_basic)" };
    }
    if (typeof body.error !== "string") return { ...ok, status: "warn", finding: `${ok.finding.replace(" and knows the client", "")}; its token endpoint answered ${res.status}, so the client was not checked` };
    return ok;
  } catch (error) {
    return { status: "warn", finding: `the token endpoint ${tokenEndpoint} is out of reach (${errorText(error)}); the client was not checked`, fix: "allow this machine to reach the provider" };
  }
}

export const oidc: Check = {
  name: "oidc sign-in",
  timeoutMs: 10_000,
  async run({ config, signal }) {
    const settings = config.oidc;
    if (!settings) return { status: "ok", finding: "off: OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are not set, so hosts sign in with passwords (optional; docs/sign-in.md)" };
    const doc = await fetchDiscovery(settings, signal);
    if ("status" in doc) return doc as Finding;
    const problem = documentProblem(settings, doc);
    if (problem) return problem;
    const finding = await clientFinding(settings, doc.token_endpoint as string, `${config.appUrl}/api/auth/callback/oidc`, signal);
    return config.passwordLogin || finding.status !== "ok" ? finding : { ...finding, finding: `${finding.finding}; PASSWORD_LOGIN=off: the only way in` };
  },
};
