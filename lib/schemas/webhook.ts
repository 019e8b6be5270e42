import { z } from "zod";
import { cancellers, refundReasons } from "@/db/schema/enums";
import { Booking, BookingPayment } from "./booking";
import { PathSegment, QueryInt, Text, Timestamp } from "./common";

// Webhooks (decisions §10): the host's endpoints, their deliveries, and the events they carry.

export const bookingEvents = ["booking.created", "booking.cancelled", "booking.rescheduled", "booking.confirmed", "booking.no_show_updated", "booking.paid", "booking.refunded"] as const;
export type BookingEvent = (typeof bookingEvents)[number];

export const WEBHOOK_EVENT_TYPES = bookingEvents;
export const WEBHOOK_TEST_EVENT = "webhook.test";

const WebhookUrl = Text.trim()
  .min(1, "Must not be empty")
  .max(2048)
  .meta({ description: "http(s) URL on the public internet (https recommended)", example: "https://example.com/webhooks/booking" });

const EventList = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1, "Choose at least one event")
  .refine((events) => new Set(events).size === events.length, { message: "Must not list an event twice" });

/** The most event types one webhook may be narrowed to. */
export const MAX_WEBHOOK_EVENT_TYPES = 100;

const EventTypeId = z.string().regex(/^evt_[A-Za-z0-9_-]{1,100}$/, "Must be an event type's id (evt_…)");

// Narrowing by event type (decisions §18): null hears of the bookings of every event type the
// host hosts, team ones included, the ones they add later too; a list hears of those only.
const EventTypeIdList = z
  .array(EventTypeId)
  .min(1, "Choose at least one event type, or send null for all of them")
  .max(MAX_WEBHOOK_EVENT_TYPES, `At most ${MAX_WEBHOOK_EVENT_TYPES} event types`)
  .refine((ids) => new Set(ids).size === ids.length, { message: "Must not list an event type twice" })
  .nullable()
  .meta({
    description:
      "Only bookings of these event types (evt_…): the host's own, or team ones they host. null (the default): every event type of the host's, team ones they host included, and those added later",
    example: ["evt_3q8Xr2mZkP0aVb7LwQe9Ts"],
  });

export const CreateWebhookBody = z.strictObject({
  url: WebhookUrl,
  events: EventList.default([...WEBHOOK_EVENT_TYPES]).meta({ description: "Events to receive; all of them when omitted" }),
  eventTypeIds: EventTypeIdList.default(null),
});

export const UpdateWebhookBody = z.strictObject({
  url: WebhookUrl.optional(),
  events: EventList.optional(),
  eventTypeIds: EventTypeIdList.optional(),
  isActive: z.boolean().optional().meta({ description: "false pauses deliveries; true resumes them (also after a 410)" }),
});

export const WebhookParams = z.object({ webhookId: PathSegment });

export const Webhook = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    eventTypeIds: z
      .array(z.string())
      .nullable()
      .meta({ description: "The event types whose bookings it hears of; null: all of the host's, team ones they host included" }),
    isActive: z.boolean(),
    disabledReason: z.string().nullable().meta({ description: "Why the service turned the endpoint off (it answered 410 Gone)" }),
    /** While set, deliveries are signed with the previous secret too. */
    previousSecretExpiresAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "Webhook" });

export const CreatedWebhook = Webhook.extend({
  secret: z.string().meta({ description: "Signing secret (whsec_…): shown this once only" }),
}).meta({ id: "CreatedWebhook" });

export const WebhookList = z.object({ data: z.array(Webhook) });

export const RotatedSecret = z.object({
  secret: z.string().meta({ description: "The new signing secret (whsec_…): shown this once only" }),
  previousSecretExpiresAt: Timestamp.meta({ description: "Until then deliveries carry signatures of both secrets" }),
});

export const TestDelivery = z.object({
  messageId: z.string().meta({ description: "The webhook-id the test message is sent with" }),
  type: z.literal(WEBHOOK_TEST_EVENT),
});

export const DeliveryListQuery = z.strictObject({ page: QueryInt(1, 100_000, 1), limit: QueryInt(1, 100, 20) });

export const WebhookDelivery = z
  .object({
    id: z.string(),
    messageId: z.string().meta({ description: "The webhook-id header: the same on every attempt of one message" }),
    eventType: z.string(),
    attempt: z.number().int(),
    status: z.enum(["succeeded", "failed"]),
    responseStatus: z.number().int().nullable(),
    durationMs: z.number().int().nullable(),
    error: z.string().nullable(),
    nextRetryAt: Timestamp.nullable().meta({ description: "When the next attempt is due; null when none will follow" }),
    createdAt: Timestamp,
    payload: z.unknown().meta({ description: "The body that was sent: {type, timestamp, data}" }),
  })
  .meta({ id: "WebhookDelivery" });

export const WebhookDeliveryList = z.object({
  data: z.array(WebhookDelivery),
  pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int() }),
});

// What each event's `data` holds. Delivery serialises the data through these, so the body's keys
// come in this order (jsonb, where the outbox keeps it, does not keep order).
// Who a booking is with (decisions §15), named in every event: its hosts and, for a team
// booking, its team. Optional for the events recorded before teams.
const BookingHostRef = z.object({ userId: z.string(), username: z.string(), fullName: z.string() });
const EventPeople = {
  hosts: z.array(BookingHostRef).optional().meta({ description: "Who hosts the booking (after this change)" }),
  team: z.object({ id: z.string(), slug: z.string(), name: z.string() }).nullable().optional().meta({ description: "The team of a team booking; null for a personal one" }),
};
export const BookingCancelledData = z.object({
  bookingId: z.string(),
  cancelledBy: z.enum(cancellers).meta({ description: "host (a cancel or a declined request), guest, or system (a request left unconfirmed until its start)" }),
  declined: z.literal(true).optional().meta({ description: "Only when the host declined a pending request" }),
  ...EventPeople,
  payment: BookingPayment.optional().meta({ description: "A paid booking's money after the cancel: refunded (the refund follows as booking.refunded), or paid (a guest's cancel past the refund window)" }),
});
export const BookingRefundedData = z.object({
  bookingId: z.string().nullable().meta({ description: "The booking whose amount came back; a late payment's refund names the payment's first booking" }),
  refundId: z.string(),
  amount: z.number().int().meta({ description: "In the currency's minor units" }),
  currency: z.string(),
  reason: z.enum(refundReasons).meta({
    description: "host_cancelled, declined, guest_cancelled (inside the refund window), expired_request (a paid request never answered), late_payment (paid after the hold had ended: the whole payment)",
  }),
  ...EventPeople,
});
export const BookingNoShowData = z.object({
  bookingId: z.string(),
  noShow: z.boolean().meta({ description: "true: the host marked the guest as not having come; false: the mark was taken back" }),
  ...EventPeople,
});
export const BookingRescheduledData = z.object({
  bookingId: z.string(),
  rescheduledBy: z.enum(["host", "guest"]).meta({ description: "Who moved it: the host (dashboard or API) or the guest (their reschedule link)" }),
  previousStartTime: Timestamp,
  previousEndTime: Timestamp,
  startTime: Timestamp,
  endTime: Timestamp,
  ...EventPeople,
  previousHosts: z
    .array(BookingHostRef)
    .optional()
    .meta({ description: "Only when the move changed hosts (a round-robin booking whose host was not free at the new time): who hosted it before" }),
});
export const WebhookTestData = z.object({ webhookId: z.string(), message: z.string() });

export const webhookEventData = {
  "booking.created": Booking,
  "booking.cancelled": BookingCancelledData,
  "booking.rescheduled": BookingRescheduledData,
  "booking.confirmed": Booking,
  "booking.no_show_updated": BookingNoShowData,
  "booking.paid": Booking,
  "booking.refunded": BookingRefundedData,
  [WEBHOOK_TEST_EVENT]: WebhookTestData,
} as const;
export type WebhookEventType = keyof typeof webhookEventData;

/** The messages a webhook receives, for the OpenAPI document: {type, timestamp, data}. */
export const outgoingWebhooks = (Object.keys(webhookEventData) as WebhookEventType[]).map((type) => ({
  name: type,
  summary: {
    "booking.created": "A guest booked: data is the Booking as the API shows it",
    "booking.cancelled": "A booking was cancelled: data is {bookingId, cancelledBy}",
    "booking.rescheduled": "A booking moved: data holds the old and the new times",
    "booking.confirmed": "The host confirmed a pending request: data is the Booking as the API shows it",
    "booking.no_show_updated": "The host marked a past booking's guest as a no-show, or took it back: data is {bookingId, noShow}",
    "booking.paid": "A guest paid for a booking of a paid event type (sent beside its booking.created): data is the Booking as the API shows it",
    "booking.refunded": "Stripe gave a booking's money back: data is {bookingId, refundId, amount, currency, reason}",
    [WEBHOOK_TEST_EVENT]: "Sent by POST /me/webhooks/{webhookId}/test",
  }[type],
  body: z.object({ type: z.literal(type), timestamp: Timestamp, data: webhookEventData[type] }),
}));
