import { z } from "zod";

// What Google and Microsoft send to POST /api/v1/hooks/provider_a|provider_b (decisions §17).
// Providers add fields of their own over time: unknown ones are ignored, never refused.

/** Google's channel headers (Calendar API "Push notifications": X-Goog-*), names lower-cased. */
export const GoogleHookHeaders = z.looseObject({
  "x-goog-channel-id": z.string().min(1).max(256),
  "x-goog-channel-token": z.string().max(256).optional(),
  "x-goog-resource-id": z.string().max(256).optional(),
  "x-goog-resource-state": z.string().min(1).max(32),
});

export const GOOGLE_HOOK_HEADERS = [
  { name: "X-Goog-Channel-ID", required: true, description: "The channel the notification is for (as created by events.watch)" },
  { name: "X-Goog-Channel-Token", required: true, description: "The channel's secret token, checked against its stored SHA-256" },
  { name: "X-Goog-Resource-ID", required: false, description: "Google's id of the watched calendar" },
  { name: "X-Goog-Resource-State", required: true, description: "sync (the channel's first message), exists or not_exists" },
];

/**
 * Graph's handshake when a subscription is created: `?validationToken=…`, echoed as text/plain.
 * The token is Graph's opaque text (it contains spaces and colons); printable, and bounded.
 */
export const GraphHookQuery = z.looseObject({
  validationToken: z
    .string()
    .min(1)
    .max(1024)
    .regex(/^[\x20-\x7e]+$/, "Must be printable ASCII")
    .optional()
    .meta({ description: "Graph's validation handshake: answered 200 text/plain with this token, nothing else" }),
});

const GraphChangeNotification = z.looseObject({
  subscriptionId: z.string().min(1).max(256),
  clientState: z.string().max(256).nullable().optional(),
  changeType: z.string().max(64).optional(),
  resource: z.string().max(2048).optional(),
});

/** A change notification batch; the handshake's request has an empty body. */
export const GraphHookBody = z.looseObject({
  value: z.array(GraphChangeNotification).max(1000).default([]),
});
