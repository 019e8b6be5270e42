import "server-only";
import http from "node:http";
import https from "node:https";
import { ipLiteralOf } from "@/lib/net/address-policy";
import { pinnedLookup, resolveChecked, type Resolver } from "@/lib/net/outbound";

export type { ResolvedAddress, Resolver } from "@/lib/net/outbound";

// One webhook POST. The host name is resolved once, every address it resolves to is checked
// against the address policy, and the connection goes to the address that was checked (a
// `lookup` that answers with it), so a DNS answer that changes between the check and the
// connect (DNS rebinding) cannot send the request somewhere else. TLS still verifies the
// certificate against the host name (SNI). Redirects are not followed: a 3xx is a failed
// attempt like any other non-2xx answer.

export type PostOptions = {
  timeoutMs: number;
  allowPrivate: boolean;
  resolve?: Resolver;
};

export type PostResult = { status: number; durationMs: number };

/** A delivery that did not get an HTTP answer: refused by policy, network error, timeout. */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly durationMs: number,
  ) {
    super(message);
    this.name = "DeliveryError";
  }
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError")) return `Timed out after ${timeoutMs / 1000} s`;
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

export async function postWebhook(rawUrl: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const url = new URL(rawUrl);
    const pinned = await Promise.race([
      // An IP literal needs no lookup (Node does not call one for it).
      resolveChecked(url.hostname, options).then((target) => (ipLiteralOf(url.hostname) ? undefined : target)),
      new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true })),
    ]);
    const secure = url.protocol === "https:";
    const status = await new Promise<number>((resolve, reject) => {
      const request = (secure ? https : http).request(
        url,
        {
          method: "POST",
          agent: false,
          signal,
          headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
          ...(pinned ? { lookup: pinnedLookup(pinned), ...(secure ? { servername: url.hostname } : {}) } : {}),
        },
        (response) => {
          resolve(response.statusCode ?? 0);
          // Only the status matters; the body is not read.
          response.destroy();
        },
      );
      request.on("error", reject);
      request.end(body);
    });
    return { status, durationMs: elapsed() };
  } catch (error) {
    throw new DeliveryError(describe(error, options.timeoutMs), elapsed());
  }
}
