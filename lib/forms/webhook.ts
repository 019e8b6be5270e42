import { CreateWebhookBody, UpdateWebhookBody, type BookingEvent } from "@/lib/schemas/webhook";
import type { FoundIssue } from "./field-errors";
import type { FormRules } from "./resolver";

// The webhooks page's form, for a new endpoint and for a change to one, checked with the API's
// own schemas (lib/schemas/webhook.ts): its address, its events, and whose bookings it hears of
// (decisions §18): all the host's event types, or only the ones ticked.

export type WebhookScope = "all" | "only";
export type WebhookValues = { url: string; events: BookingEvent[]; scope: WebhookScope; eventTypeIds: string[] };

/** The fields a problem can be shown at; `eventTypeIds.N` is shown at the list. */
export const WEBHOOK_FIELDS: readonly string[] = ["url", "events", "eventTypeIds"];

export const webhookFieldOf = (path: string): string | undefined => {
  const field = path.split(".")[0]!;
  return WEBHOOK_FIELDS.includes(field) ? field : undefined;
};

export const EVENT_CHOICES: { value: BookingEvent; label: string }[] = [
  { value: "booking.created", label: "A booking is made" },
  { value: "booking.cancelled", label: "A booking is cancelled" },
  { value: "booking.rescheduled", label: "A booking is moved" },
  { value: "booking.paid", label: "A guest pays for a booking" },
  { value: "booking.refunded", label: "A payment is refunded" },
];

/** A new endpoint: the events above, every event type. */
export const NEW_WEBHOOK: WebhookValues = { url: "", events: EVENT_CHOICES.map((e) => e.value), scope: "all", eventTypeIds: [] };

/**
 * A webhook as the form shows it. `known` are the event types the host may choose now: a listed
 * one that is gone (deleted, or a team type they no longer host) is left out, so saving does not
 * send back an id the API would refuse.
 */
export function webhookValues(w: { url: string; events: BookingEvent[]; eventTypeIds: string[] | null }, known: ReadonlySet<string>): WebhookValues {
  return {
    url: w.url,
    events: w.events,
    scope: w.eventTypeIds === null ? "all" : "only",
    eventTypeIds: (w.eventTypeIds ?? []).filter((id) => known.has(id)),
  };
}

/** The body both forms send: `null` for every event type. */
export const webhookBody = (v: WebhookValues) => ({ url: v.url.trim(), events: v.events, eventTypeIds: v.scope === "all" ? null : v.eventTypeIds });

const webhookWords = ({ path, code }: FoundIssue): string | undefined => {
  if (path === "eventTypeIds" && code === "too_small") return "Tick at least one event type, or choose All event types.";
  if (path === "events" && code === "too_small") return "Tick at least one event.";
  return undefined;
};

export const newWebhookRules: FormRules<WebhookValues> = { schema: CreateWebhookBody, toBody: webhookBody, fieldOf: webhookFieldOf, words: webhookWords };
export const webhookChangeRules: FormRules<WebhookValues> = { schema: UpdateWebhookBody, toBody: webhookBody, fieldOf: webhookFieldOf, words: webhookWords };
