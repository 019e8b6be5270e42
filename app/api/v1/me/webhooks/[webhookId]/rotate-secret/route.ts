// POST /api/v1/me/webhooks/{webhookId}/rotate-secret – a new signing secret; the old one signs for 24 h more
import { endpoint, json, route } from "@/lib/http/route";
import { RotatedSecret, WebhookParams } from "@/lib/schemas/webhook";
import { rotateWebhookSecret } from "@/lib/services/webhooks";
import { isoUtc } from "@/lib/time/instants";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/webhooks/{webhookId}/rotate-secret", {
  POST: route(
    {
      auth: "host",
      summary: "Replace the signing secret (shown this once); for 24 hours deliveries are signed with both",
      tags: ["Webhooks"],
      params: WebhookParams,
      responses: { 200: { description: "The new secret", schema: RotatedSecret } },
      errors: [404],
    },
    async ({ db, host, params }) => {
      const { secret, previousSecretExpiresAt } = await rotateWebhookSecret(db, host, params.webhookId, Date.now());
      return json({ secret, previousSecretExpiresAt: isoUtc(previousSecretExpiresAt) });
    },
  ),
});
