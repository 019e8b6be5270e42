// DELETE /api/v1/me/api-keys/{keyId} – revoke a key: it answers 401 at once, on every instance
import { endpoint, json, route } from "@/lib/http/route";
import { ApiKeyParams } from "@/lib/schemas/api-key";
import { revokeApiKey } from "@/lib/services/api-keys";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/api-keys/{keyId}", {
  DELETE: route(
    {
      auth: "host",
      summary: "Revoke an API key; requests with it are refused from now on",
      tags: ["API keys"],
      params: ApiKeyParams,
      responses: { 204: { description: "Revoked" } },
      errors: [404],
    },
    async ({ db, host, params }) => {
      await revokeApiKey(db, host, params.keyId);
      return json(undefined, { status: 204 });
    },
  ),
});
