import "server-only";
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { webhooks, type UserRow, type WebhookRow } from "@/db/schema";

export function listWebhooks(db: Db, host: UserRow): Promise<WebhookRow[]> {
  return db.select().from(webhooks).where(eq(webhooks.userId, host.id)).orderBy(asc(webhooks.createdAt), asc(webhooks.id));
}
