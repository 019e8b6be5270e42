import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import type { CreatedWebhook, CreateWebhookBody, UpdateWebhookBody, Webhook, WebhookDeliveryList, WebhookList } from "@/lib/schemas/webhook";
import { fetchJson } from "./fetch-json";

// The host's webhooks: the endpoints, each one's deliveries, and what a host does to one.

export type WebhookDto = z.output<typeof Webhook>;
export type CreatedWebhookDto = z.output<typeof CreatedWebhook>;
export type WebhookDeliveryListDto = z.output<typeof WebhookDeliveryList>;
export type WebhookEvent = WebhookDto["events"][number];

export const webhookKeys = { all: ["me", "webhooks"] as const, deliveries: (id: string) => ["me", "webhooks", id, "deliveries"] as const };

const webhook = (id: string) => `/me/webhooks/${encodeURIComponent(id)}`;

export const webhooksQuery = () =>
  queryOptions({ queryKey: webhookKeys.all, queryFn: async () => (await fetchJson<z.output<typeof WebhookList>>("/me/webhooks")).data });

export const deliveriesQuery = (id: string, page: number) =>
  queryOptions({
    queryKey: [...webhookKeys.deliveries(id), page] as const,
    queryFn: () => fetchJson<WebhookDeliveryListDto>(`${webhook(id)}/deliveries?page=${page}&limit=10`),
  });

/** `eventTypeIds`: only bookings of these event types; null or left out, all of them (decisions §18). */
export const createWebhook = (input: z.input<typeof CreateWebhookBody>) => fetchJson<CreatedWebhookDto>("/me/webhooks", { method: "POST", body: input });
export const updateWebhook = (id: string, change: z.input<typeof UpdateWebhookBody>) =>
  fetchJson<WebhookDto>(webhook(id), { method: "PATCH", body: change });
export const deleteWebhook = (id: string) => fetchJson<undefined>(webhook(id), { method: "DELETE" });
export const testWebhook = (id: string) => fetchJson<{ messageId: string; type: string }>(`${webhook(id)}/test`, { method: "POST" });
export const rotateWebhookSecret = (id: string) =>
  fetchJson<{ secret: string; previousSecretExpiresAt: string }>(`${webhook(id)}/rotate-secret`, { method: "POST" });
