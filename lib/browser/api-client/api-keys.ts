import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import type { ApiKey, ApiKeyList, ApiScope, CreatedApiKey } from "@/lib/schemas/api-key";
import { fetchJson } from "./fetch-json";

// The account's API keys: made, listed and revoked by the person (a key cannot manage keys).

export type ApiKeyDto = z.output<typeof ApiKey>;
export type CreatedApiKeyDto = z.output<typeof CreatedApiKey>;

export const apiKeyKeys = { all: ["me", "api-keys"] as const };

export const apiKeysQuery = () =>
  queryOptions({ queryKey: apiKeyKeys.all, queryFn: async () => (await fetchJson<z.output<typeof ApiKeyList>>("/me/api-keys")).data });

export const createApiKey = (input: { name: string; scopes: ApiScope[]; expiresInDays?: number }) => fetchJson<CreatedApiKeyDto>("/me/api-keys", { method: "POST", body: input });
export const revokeApiKey = (id: string) => fetchJson<undefined>(`/me/api-keys/${encodeURIComponent(id)}`, { method: "DELETE" });
