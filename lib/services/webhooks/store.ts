import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { webhooks, type UserRow, type WebhookRow } from "@/db/schema";
import { getConfig } from "@/lib/config";
import { notFound, validationError } from "@/lib/errors";
import { targetUrlProblem } from "@/lib/net/address-policy";
import { eventTypesHostedBy } from "@/lib/services/teams/hosts";

/** The host's webhook, or 404: another host's id is indistinguishable from an unknown one. */
export async function getWebhookForHostOrThrow(db: Db, host: UserRow, id: string): Promise<WebhookRow> {
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.userId, host.id)))
    .limit(1);
  if (!row) throw notFound("Webhook");
  return row;
}

/**
 * A URL the service may send to (400 at `url` otherwise): http(s), no credentials, and no
 * private, loopback or link-local target unless WEBHOOKS_ALLOW_PRIVATE=1. Delivery checks the
 * address it actually connects to again.
 */
export function assertWebhookTarget(url: string): string {
  const problem = targetUrlProblem(url, getConfig().webhooksAllowPrivate);
  if (problem) throw validationError([{ path: "url", message: problem }]);
  return new URL(url).toString();
}

/**
 * The event types a webhook is narrowed to, when each is one the host hosts (their own, or a team
 * one they host); 400 at `eventTypeIds.N` for each that is not. Another host's id reads as an
 * unknown one, as everywhere: the words do not say whether it exists. Checked, not locked: a host
 * who stops hosting one later hears nothing more of it anyway (deliveries go to a booking's hosts).
 */
export async function assertSubscribableEventTypes(db: Db, host: UserRow, ids: string[] | null): Promise<string[] | null> {
  if (ids === null) return null;
  const hosted = await eventTypesHostedBy(db, host.id, ids);
  const issues = ids.flatMap((id, i) =>
    hosted.has(id) ? [] : [{ path: `eventTypeIds.${i}`, message: `Not an event type you host: ${id}. Choose your own event types or team ones you host` }],
  );
  if (issues.length > 0) throw validationError(issues);
  return ids;
}
