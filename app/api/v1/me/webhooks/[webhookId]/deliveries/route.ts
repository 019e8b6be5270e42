// GET /api/v1/me/webhooks/{webhookId}/deliveries – the webhook's delivery attempts, newest first
import { toWebhookDelivery } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { DeliveryListQuery, WebhookDeliveryList, WebhookParams } from "@/lib/schemas/webhook";
import { listDeliveries } from "@/lib/services/webhooks";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/webhooks/{webhookId}/deliveries", {
  GET: route(
    {
      auth: "host",
      summary: "List delivery attempts, newest first: status, response code, duration, attempt, next retry, error",
      tags: ["Webhooks"],
      params: WebhookParams,
      query: DeliveryListQuery,
      responses: { 200: { description: "A page of attempts", schema: WebhookDeliveryList } },
      errors: [404],
    },
    async ({ db, host, params, query }) => {
      const { rows, total } = await listDeliveries(db, host, params.webhookId, query);
      return json({ data: rows.map(toWebhookDelivery), pagination: { page: query.page, limit: query.limit, total } });
    },
  ),
});
