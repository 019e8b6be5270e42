import "server-only";
import { webhookEventData, type WebhookEventType } from "@/lib/schemas/webhook";

/**
 * The body of one webhook message, serialised once when the message is made and sent byte for
 * byte the same on every attempt: {type, timestamp, data}, data in the documented key order.
 */
export function webhookBody(type: WebhookEventType, timestamp: string, data: unknown): string {
  const parsed = webhookEventData[type].safeParse(data);
  // Data written by an older version that no longer fits the schema still goes out as it is.
  return JSON.stringify({ type, timestamp, data: parsed.success ? parsed.data : data });
}
