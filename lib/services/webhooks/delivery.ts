import "server-only";
import { eq } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { runStatements } from "@/db/client";
import { webhookDeliveries, webhooks, type WebhookRow } from "@/db/schema";
import { newId } from "@/lib/ids";
import { open } from "@/lib/secret-box";
import { WEBHOOK_SECRET_PURPOSE } from "@/lib/webhooks/signing";

// The webhook rows the outbox's deliveries read and write: which endpoints get an event, the one
// a message goes to, and the record of each attempt (lib/jobs/webhook-delivery.ts does the HTTP).

// One prepared statement for every host of the event (a team booking's hosts, and any it left).
// A webhook narrowed to event types (decisions §18) hears of the booking when its event type is
// listed; a listed id whose event type was deleted never matches, as no booking can have it (a
// type with bookings is hidden, never deleted), so the list is kept as the host wrote it.
const WANTING_SQL = `
select w.id from json_array_elements_text($1::text::json) with ordinality as h(user_id, n)
join webhooks w on w.user_id = h.user_id
where w.is_active and w.events @> array[$2::text]
  and (w.event_type_ids is null or w.event_type_ids @> array[(select b.event_type_id from bookings b where b.id = $3)])
order by h.n, w.created_at, w.id`;

/** The active webhooks of the hosts `hostIds` that want `event` of booking `bookingId` (its event type included), by id, each once. */
export async function webhooksWanting(db: Db, hostIds: string[], event: string, bookingId: string): Promise<string[]> {
  if (hostIds.length === 0) return [];
  const [rows] = await runStatements(db)<[{ id: string }[]]>([{ text: WANTING_SQL, params: [JSON.stringify(hostIds), event, bookingId] }]);
  return [...new Set(rows.map((r) => r.id))];
}

/** The webhook a message goes to, when it still exists and is turned on. */
export async function webhookToDeliver(db: Db, webhookId: string): Promise<WebhookRow | undefined> {
  const [webhook] = await db.select().from(webhooks).where(eq(webhooks.id, webhookId)).limit(1);
  return webhook?.isActive ? webhook : undefined;
}

/** The secrets that sign now: the current one, and the previous one until its 24 hours are over. Undefined when they no longer open. */
export function signingSecrets(webhook: WebhookRow, now: number): string[] | undefined {
  const current = open(webhook.secretEncrypted, WEBHOOK_SECRET_PURPOSE);
  if (current === undefined) return undefined;
  const previous =
    webhook.previousSecretEncrypted && webhook.previousSecretExpiresAt && webhook.previousSecretExpiresAt.getTime() > now
      ? open(webhook.previousSecretEncrypted, WEBHOOK_SECRET_PURPOSE)
      : undefined;
  return previous === undefined ? [current] : [current, previous];
}

export type DeliveryAttempt = {
  webhookId: string;
  messageId: string;
  eventType: string;
  body: string;
  attempt: number;
  status: "succeeded" | "failed";
  responseStatus: number | null;
  error: string | null;
  durationMs: number | null;
  nextRetryAt: Date | null;
  at: number;
  /** The endpoint is turned off for good, with this reason (410 Gone). */
  disable?: string;
};

/** Records one attempt in the endpoint's log (and turns the endpoint off when asked), in the transaction that settles the job. */
export async function recordDeliveryAttempt(tx: Tx, a: DeliveryAttempt): Promise<void> {
  // The webhook may have been deleted meanwhile (its log goes with it); held, it cannot be now.
  const [webhook] = await tx.select({ id: webhooks.id }).from(webhooks).where(eq(webhooks.id, a.webhookId)).for("key share");
  if (!webhook) return;
  await tx.insert(webhookDeliveries).values({
    id: newId("whd"),
    webhookId: a.webhookId,
    eventId: a.messageId,
    eventType: a.eventType,
    payload: JSON.parse(a.body) as unknown,
    attempt: a.attempt,
    status: a.status,
    responseStatus: a.responseStatus,
    error: a.error,
    durationMs: a.durationMs,
    nextRetryAt: a.nextRetryAt,
    createdAt: new Date(a.at),
  });
  if (a.disable) await tx.update(webhooks).set({ isActive: false, disabledReason: a.disable, updatedAt: new Date(a.at) }).where(eq(webhooks.id, a.webhookId));
}
