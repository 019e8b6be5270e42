import "server-only";
import { count, desc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { webhookDeliveries, type UserRow, type WebhookDeliveryRow } from "@/db/schema";
import { getWebhookForHostOrThrow } from "./store";

/** The endpoint's delivery attempts, newest first, a page at a time. */
export async function listDeliveries(
  db: Db,
  host: UserRow,
  id: string,
  page: { page: number; limit: number },
): Promise<{ rows: WebhookDeliveryRow[]; total: number }> {
  await getWebhookForHostOrThrow(db, host, id);
  const mine = eq(webhookDeliveries.webhookId, id);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(webhookDeliveries)
      .where(mine)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.attempt), desc(webhookDeliveries.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ n: count() }).from(webhookDeliveries).where(mine),
  ]);
  return { rows, total: total?.n ?? 0 };
}
