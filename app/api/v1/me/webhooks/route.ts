// GET, POST /api/v1/me/webhooks – list and add the host's webhook endpoints
import { toWebhook } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { CreatedWebhook, CreateWebhookBody, WebhookList } from "@/lib/schemas/webhook";
import { createWebhook, listWebhooks } from "@/lib/services/webhooks";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/webhooks", {
  GET: route(
    {
      auth: "host",
      summary: "List the host's webhooks, oldest first",
      tags: ["Webhooks"],
      responses: { 200: { description: "Webhooks (secrets are never listed)", schema: WebhookList } },
    },
    async ({ db, host }) => {
      const now = Date.now();
      return json({ data: (await listWebhooks(db, host)).map((w) => toWebhook(w, now)) });
    },
  ),
  POST: route(
    {
      auth: "host",
      summary: "Add a webhook; its signing secret is in this answer only",
      tags: ["Webhooks"],
      body: CreateWebhookBody,
      responses: { 201: { description: "The new webhook with its secret (whsec_…)", schema: CreatedWebhook } },
      errors: [409],
    },
    async ({ db, host, body }) => {
      const now = Date.now();
      const { webhook, secret } = await createWebhook(db, host, body, now);
      return json({ ...toWebhook(webhook, now), secret }, { status: 201 });
    },
  ),
});
