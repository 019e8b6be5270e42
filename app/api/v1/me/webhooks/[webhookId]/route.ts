// GET, PATCH, DELETE /api/v1/me/webhooks/{webhookId} – read, change or remove one webhook
import { toWebhook } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { UpdateWebhookBody, Webhook, WebhookParams } from "@/lib/schemas/webhook";
import { deleteWebhook, getWebhookForHostOrThrow, updateWebhook } from "@/lib/services/webhooks";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/webhooks/{webhookId}", {
  GET: route(
    {
      auth: "host",
      summary: "Read one webhook",
      tags: ["Webhooks"],
      params: WebhookParams,
      responses: { 200: { description: "The webhook", schema: Webhook } },
      errors: [404],
    },
    async ({ db, host, params }) => json(toWebhook(await getWebhookForHostOrThrow(db, host, params.webhookId), Date.now())),
  ),
  PATCH: route(
    {
      auth: "host",
      summary: "Change a webhook's URL or events, or turn it off and on",
      tags: ["Webhooks"],
      params: WebhookParams,
      body: UpdateWebhookBody,
      responses: { 200: { description: "The updated webhook", schema: Webhook } },
      errors: [404],
    },
    async ({ db, host, params, body }) => {
      const now = Date.now();
      return json(toWebhook(await updateWebhook(db, host, params.webhookId, body, now), now));
    },
  ),
  DELETE: route(
    {
      auth: "host",
      summary: "Remove a webhook and its delivery log",
      tags: ["Webhooks"],
      params: WebhookParams,
      responses: { 204: { description: "Removed" } },
      errors: [404],
    },
    async ({ db, host, params }) => {
      await deleteWebhook(db, host, params.webhookId);
      return json(undefined, { status: 204 });
    },
  ),
});
