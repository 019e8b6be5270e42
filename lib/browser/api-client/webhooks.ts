import { queryOptions } from "@tanstack/react-query";
import { api, dataOf, type AnswerOf, type BodyOf, type Schemas } from "./client";

// The host's webhooks: the endpoints, each one's deliveries, and what a host does to one.

export type WebhookDto = Schemas["Webhook"];
export type CreatedWebhookDto = Schemas["CreatedWebhook"];
export type WebhookDeliveryListDto = AnswerOf<"/me/webhooks/{webhookId}/deliveries", "get">;
export type WebhookEvent = WebhookDto["events"][number];

export const webhookKeys = { all: ["me", "webhooks"] as const, deliveries: (id: string) => ["me", "webhooks", id, "deliveries"] as const };

const webhook = (webhookId: string) => ({ params: { path: { webhookId } } });

export const webhooksQuery = () => queryOptions({ queryKey: webhookKeys.all, queryFn: async () => (await dataOf(api.GET("/me/webhooks"))).data });

export const deliveriesQuery = (id: string, page: number) =>
  queryOptions({
    queryKey: [...webhookKeys.deliveries(id), page] as const,
    queryFn: () => dataOf(api.GET("/me/webhooks/{webhookId}/deliveries", { params: { path: { webhookId: id }, query: { page: String(page), limit: "10" } } })),
  });

/** `eventTypeIds`: only bookings of these event types; null or left out, all of them (decisions §18). */
export const createWebhook = (input: BodyOf<"/me/webhooks", "post">) => dataOf(api.POST("/me/webhooks", { body: input }));
export const updateWebhook = (id: string, change: BodyOf<"/me/webhooks/{webhookId}", "patch">) =>
  dataOf(api.PATCH("/me/webhooks/{webhookId}", { ...webhook(id), body: change }));
export const deleteWebhook = (id: string) => dataOf(api.DELETE("/me/webhooks/{webhookId}", webhook(id)));
export const testWebhook = (id: string) => dataOf(api.POST("/me/webhooks/{webhookId}/test", webhook(id)));
export const rotateWebhookSecret = (id: string) => dataOf(api.POST("/me/webhooks/{webhookId}/rotate-secret", webhook(id)));
