// GET, POST /api/v1/me/api-keys – list and make the host's API keys (the person's own sign-in only)
import { toApiKey } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { ApiKeyList, CreateApiKeyBody, CreatedApiKey } from "@/lib/schemas/api-key";
import { createApiKey, listApiKeys } from "@/lib/services/api-keys";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/api-keys", {
  GET: route(
    {
      auth: "host",
      summary: "List the account's API keys, oldest first (the keys themselves are never listed)",
      tags: ["API keys"],
      responses: { 200: { description: "The keys: name, scopes, prefix, when made, when they expire and were last used", schema: ApiKeyList } },
    },
    async ({ db, host }) => json({ data: (await listApiKeys(db, host)).map(toApiKey) }),
  ),
  POST: route(
    {
      auth: "host",
      summary: "Make an API key with a name, scopes and an optional expiry; the key is in this answer only",
      tags: ["API keys"],
      body: CreateApiKeyBody,
      responses: { 201: { description: "The new key (bk_…) beside what is listed of it", schema: CreatedApiKey } },
      errors: [{ status: 409, description: "The account has 50 keys already (conflict)" }],
    },
    async ({ db, host, body }) => {
      const { row, key } = await createApiKey(db, host, body);
      return json({ ...toApiKey(row), key }, { status: 201 });
    },
  ),
});
