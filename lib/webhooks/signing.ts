import "server-only";
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

// Standard Webhooks signatures (https://www.standardwebhooks.com), made by the spec's own
// library: HMAC-SHA256 over "{webhook-id}.{webhook-timestamp}.{body}", sent as "v1,<base64>".

/** Secrets are kept sealed (lib/secret-box.ts) for this use only. */
export const WEBHOOK_SECRET_PURPOSE = "webhook:signing-secret";

/** A new signing secret: whsec_ and 32 random bytes in base64, the form the library reads. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/**
 * The webhook-signature header for a body signed by each secret, space-separated (the spec's
 * way to carry several): during a rotation both the new and the previous secret sign, so a
 * receiver verifying with either accepts the message.
 */
export function signatureHeader(secrets: string[], messageId: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(" ");
}
