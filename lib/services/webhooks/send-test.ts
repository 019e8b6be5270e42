import "server-only";
import type { Db } from "@/db";
import type { UserRow } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { WEBHOOK_DELIVERY } from "@/lib/outbox/kinds";
import { enqueueJobs } from "@/lib/outbox/enqueue";
import { wakeJobWorker } from "@/lib/outbox/wake";
import type { WebhookDeliveryJob } from "@/lib/outbox/payloads";
import { WEBHOOK_TEST_EVENT } from "@/lib/schemas/webhook";
import { isoUtc } from "@/lib/time/instants";
import { webhookBody } from "@/lib/webhooks/body";
import { getWebhookForHostOrThrow } from "./store";

/**
 * Queues a webhook.test message for one endpoint. It goes the way every message goes (the
 * outbox, signing, retries, the delivery log), so it shows whether real ones would arrive.
 */
export async function sendTestEvent(db: Db, host: UserRow, id: string, now: number): Promise<{ messageId: string; type: typeof WEBHOOK_TEST_EVENT }> {
  const webhook = await getWebhookForHostOrThrow(db, host, id);
  if (!webhook.isActive) throw new AppError("conflict", "This webhook is turned off; turn it on (isActive: true) to test it");
  const messageId = newId("msg");
  const body = webhookBody(WEBHOOK_TEST_EVENT, isoUtc(new Date(now)), {
    webhookId: webhook.id,
    message: "A test message from your booking service: this endpoint receives and verifies its webhooks.",
  });
  const job: WebhookDeliveryJob = { webhookId: webhook.id, messageId, eventType: WEBHOOK_TEST_EVENT, body };
  await db.transaction((tx) => enqueueJobs(tx, [{ kind: WEBHOOK_DELIVERY, payload: job }], now));
  wakeJobWorker();
  return { messageId, type: WEBHOOK_TEST_EVENT };
}
