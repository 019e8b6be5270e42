import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { webhooks, type UserRow } from "@/db/schema";
import { notFound } from "@/lib/errors";
import { seal } from "@/lib/secret-box";
import { newWebhookSecret, WEBHOOK_SECRET_PURPOSE } from "@/lib/webhooks/signing";

/** How long the replaced secret keeps signing: time for the receiver to switch. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 3_600_000;

/**
 * A new signing secret, returned this once. For 24 hours deliveries carry a signature made with
 * the previous secret too, so the receiver may switch whenever it likes in that time. Rotating
 * again replaces the previous secret with the one being retired.
 */
export async function rotateWebhookSecret(db: Db, host: UserRow, id: string, now: number): Promise<{ secret: string; previousSecretExpiresAt: Date }> {
  const secret = newWebhookSecret();
  const previousSecretExpiresAt = new Date(now + PREVIOUS_SECRET_TTL_MS);
  const [row] = await db
    .update(webhooks)
    .set({
      previousSecretEncrypted: webhooks.secretEncrypted,
      previousSecretExpiresAt,
      secretEncrypted: seal(secret, WEBHOOK_SECRET_PURPOSE),
      updatedAt: new Date(now),
    })
    .where(and(eq(webhooks.id, id), eq(webhooks.userId, host.id)))
    .returning({ id: webhooks.id });
  if (!row) throw notFound("Webhook");
  return { secret, previousSecretExpiresAt };
}
