import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { providerCallStatuses } from "@/db/schema/enums";
import { getConfig, type CallsProviderConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { siteUrl } from "@/lib/links";

// The telephony provider: a Twilio-compatible REST API. Ten lines of HTTP and one HMAC do not
// need an SDK: placing a call is one form-encoded POST, and a status callback is verified the
// way Twilio signs it.

/** What a create-call answer carries that we keep; the provider sends much more. */
const CreatedCall = z.object({
  sid: z.string().min(1).max(64),
  // A new call is `queued`; a status we do not know is taken for that.
  status: z.enum(providerCallStatuses).catch("queued"),
});
export type PlacedCall = z.output<typeof CreatedCall>;
/** A Twilio error body: `{code, message, more_info, status}`. */
const ProviderError = z.object({ code: z.number().optional(), message: z.string().optional() });

/** The provider settings, or 503 provider_unavailable when the service has no credentials. */
export function callsProviderOrThrow(): CallsProviderConfig {
  const provider = getConfig().calls;
  if (!provider) {
    throw new AppError(
      "provider_unavailable",
      "Outbound calls are not configured on this service (CALLS_ACCOUNT_SID, CALLS_AUTH_TOKEN, CALLS_FROM_NUMBER)",
    );
  }
  return provider;
}

/** The provider could not place the call; `reason` is what the call record keeps. */
export class CallNotPlaced extends AppError {
  constructor(readonly reason: string, details: Record<string, unknown> = {}) {
    super("provider_unavailable", `The telephony provider could not place the call: ${reason}`, details);
  }
}

/**
 * POST {base}/2010-04-01/Accounts/{AccountSid}/Calls.json: dials `to` from the configured
 * number and says the TwiML. A non-2xx answer, a network error or no answer within the timeout
 * throws CallNotPlaced (503 provider_unavailable).
 */
export async function createCall(
  config: CallsProviderConfig,
  call: { to: string; twiml: string; statusCallback: string },
): Promise<PlacedCall> {
  const url = `${config.baseUrl}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Calls.json`;
  const form = new URLSearchParams({
    To: call.to,
    From: config.fromNumber,
    Twiml: call.twiml,
    // Twilio posts status callbacks by default; without StatusCallbackEvent, when the call ends.
    StatusCallback: call.statusCallback,
  });
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: form,
      signal: AbortSignal.timeout(config.timeoutMs),
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    throw new CallNotPlaced(timedOut ? `no answer within ${config.timeoutMs} ms` : "the provider cannot be reached");
  }
  const body: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const detail = ProviderError.safeParse(body);
    const said = detail.success && detail.data.message ? `: ${detail.data.message}` : "";
    throw new CallNotPlaced(`HTTP ${res.status}${said}`, {
      providerStatus: res.status,
      ...(detail.success && detail.data.code !== undefined ? { providerCode: detail.data.code } : {}),
    });
  }
  const created = CreatedCall.safeParse(body);
  if (!created.success) throw new CallNotPlaced("the provider's answer carries no call sid");
  return created.data;
}

/**
 * Twilio's request signature: base64 HMAC-SHA1, keyed with the auth token, over the full public
 * URL followed by every POST field's name and value, sorted by name (a name sent several times:
 * once per distinct value, values sorted, as Twilio's own validators do).
 */
export function requestSignature(authToken: string, url: string, fields: Iterable<[string, string]>): string {
  const byName = new Map<string, Set<string>>();
  for (const [name, value] of fields) byName.set(name, (byName.get(name) ?? new Set()).add(value));
  let data = url;
  for (const name of [...byName.keys()].sort()) {
    for (const value of [...byName.get(name)!].sort()) data += name + value;
  }
  return createHmac("sha1", authToken).update(data, "utf8").digest("base64");
}

/** Whether `signature` is the provider's for this URL and these fields (compared in constant time). */
export function isSignedByProvider(authToken: string, url: string, fields: Iterable<[string, string]>, signature: string | null): boolean {
  if (!signature) return false;
  const expected = Buffer.from(requestSignature(authToken, url, fields));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * The route wrapper's check of a status callback: signed by the provider for our public URL
 * (APP_URL and the path, as given in StatusCallback; not the address the request came in on,
 * which a proxy may have changed), else 403 before anything is read from it.
 */
export function verifyProviderRequest({ req, url, form }: { req: Request; url: URL; form: URLSearchParams }): void {
  const provider = callsProviderOrThrow();
  const publicUrl = siteUrl(`${url.pathname}${url.search}`);
  if (!isSignedByProvider(provider.authToken, publicUrl, form, req.headers.get("x-twilio-signature"))) {
    throw new AppError("forbidden", "The request signature does not verify");
  }
}
