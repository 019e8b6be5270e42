import "server-only";
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { webhooks, type UserRow, type WebhookRow } from "@/db/schema";
import { notFound } from "@/lib/errors";
import type { UpdateWebhookBody } from "@/lib/schemas/webhook";
import { assertSubscribableEventTypes, assertWebhookTarget, getWebhookForHostOrThrow } from "./store";

/**
 * Changes the URL, the events, the event types (null: all again) or whether it is active; turning
 * it on again clears a 410's mark.
 */
export async function updateWebhook(
  db: Db,
  host: UserRow,
  id: string,
  input: z.output<typeof UpdateWebhookBody>,
  now: number,
): Promise<WebhookRow> {
  const url = input.url === undefined ? undefined : assertWebhookTarget(input.url);
  if (url === undefined && input.events === undefined && input.eventTypeIds === undefined && input.isActive === undefined) return getWebhookForHostOrThrow(db, host, id);
  // Another host's webhook is a 404 before its event types are judged, as it is without them.
  if (input.eventTypeIds) await getWebhookForHostOrThrow(db, host, id);
  const eventTypeIds = input.eventTypeIds === undefined ? undefined : await assertSubscribableEventTypes(db, host, input.eventTypeIds);
  const [row] = await db
    .update(webhooks)
    .set({
      ...(url !== undefined ? { url } : {}),
      ...(input.events !== undefined ? { events: input.events } : {}),
      ...(eventTypeIds !== undefined ? { eventTypeIds } : {}),
      ...(input.isActive !== undefined ? { isActive: input.isActive, disabledReason: null } : {}),
      updatedAt: new Date(now),
    })
    .where(and(eq(webhooks.id, id), eq(webhooks.userId, host.id)))
    .returning();
  if (!row) throw notFound("Webhook");
  return row;
}
