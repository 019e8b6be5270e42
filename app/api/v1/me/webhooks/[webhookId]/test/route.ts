// POST /api/v1/me/webhooks/{webhookId}/test – send a webhook.test message to the endpoint
import { endpoint, json, route } from "@/lib/http/route";
import { TestDelivery, WebhookParams } from "@/lib/schemas/webhook";
import { sendTestEvent } from "@/lib/services/webhooks";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/webhooks/{webhookId}/test", {
  POST: route(
    {
      auth: "host",
      summary: "Queue a signed webhook.test message; its attempts appear among the deliveries",
      tags: ["Webhooks"],
      params: WebhookParams,
      responses: { 202: { description: "Queued", schema: TestDelivery } },
      errors: [404, 409],
    },
    async ({ db, host, params }) => json(await sendTestEvent(db, host, params.webhookId, Date.now()), { status: 202 }),
  ),
});
