import "server-only";
import { count, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { webhooks, type UserRow, type WebhookRow } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { CreateWebhookBody } from "@/lib/schemas/webhook";
import { seal } from "@/lib/secret-box";
import { lockName } from "@/lib/store/locks";
import { newWebhookSecret, WEBHOOK_SECRET_PURPOSE } from "@/lib/webhooks/signing";
import { assertSubscribableEventTypes, assertWebhookTarget } from "./store";

export const MAX_WEBHOOKS_PER_HOST = 20;

/** Adds an endpoint; its secret is returned this once and kept only sealed. */
export async function createWebhook(
  db: Db,
  host: UserRow,
  input: z.output<typeof CreateWebhookBody>,
  now: number,
): Promise<{ webhook: WebhookRow; secret: string }> {
  const url = assertWebhookTarget(input.url);
  const eventTypeIds = await assertSubscribableEventTypes(db, host, input.eventTypeIds);
  const secret = newWebhookSecret();
  const webhook = await db.transaction(async (tx) => {
    // Creations of one host take turns, so the limit holds under concurrent requests.
    await lockName(tx, `webhooks:${host.id}`);
    const [existing] = await tx.select({ n: count() }).from(webhooks).where(eq(webhooks.userId, host.id));
    if ((existing?.n ?? 0) >= MAX_WEBHOOKS_PER_HOST) {
      throw new AppError("conflict", `At most ${MAX_WEBHOOKS_PER_HOST} webhooks per account; delete one first`);
    }
    const [row] = await tx
      .insert(webhooks)
      .values({
        id: newId("whk"),
        userId: host.id,
        url,
        events: input.events,
        eventTypeIds,
        secretEncrypted: seal(secret, WEBHOOK_SECRET_PURPOSE),
        createdAt: new Date(now),
        updatedAt: new Date(now),
      })
      .returning();
    return row!;
  });
  return { webhook, secret };
}
