import { queryOptions } from "@tanstack/react-query";
import { api, dataOf, type BodyOf, type Schemas } from "./client";

// The account's API keys: made, listed and revoked by the person (a key cannot manage keys).

export type ApiKeyDto = Schemas["ApiKey"];
export type CreatedApiKeyDto = Schemas["CreatedApiKey"];

export const apiKeyKeys = { all: ["me", "api-keys"] as const };

export const apiKeysQuery = () => queryOptions({ queryKey: apiKeyKeys.all, queryFn: async () => (await dataOf(api.GET("/me/api-keys"))).data });

export const createApiKey = (input: BodyOf<"/me/api-keys", "post">) => dataOf(api.POST("/me/api-keys", { body: input }));
export const revokeApiKey = (keyId: string) => dataOf(api.DELETE("/me/api-keys/{keyId}", { params: { path: { keyId } } }));
