import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { webhooks, type UserRow } from "@/db/schema";
import { notFound } from "@/lib/errors";

/** Removes the endpoint and its delivery log; messages still queued for it are dropped when they come up. */
export async function deleteWebhook(db: Db, host: UserRow, id: string): Promise<void> {
  const deleted = await db
    .delete(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.userId, host.id)))
    .returning({ id: webhooks.id });
  if (deleted.length === 0) throw notFound("Webhook");
}
