import { z } from "zod";
import { callAgents, callStatuses, providerCallStatuses } from "@/db/schema/enums";
import { QueryInt } from "./common";
import { Text, Timestamp } from "./common";

// The outbound-calling service (docs/api.md "The two auxiliary contracts", decisions §2, §11).

export const CallsDescriptor = z
  .object({
    success: z.boolean(),
    service: z.string(),
    domain: z.string(),
    port: z.number().int(),
    agents: z.array(z.enum(callAgents)),
    endpoints: z.object({ health: z.string(), reminder: z.string(), followup: z.string(), webhook: z.string() }),
  })
  .meta({ id: "CallsDescriptor" });

export const OutboundCallBody = z.strictObject({
  bookingId: Text.trim().min(1).max(200).meta({ description: "One of your bookings", example: "bkg_3q8…" }),
});

export const Call = z
  .object({
    id: z.string(),
    bookingId: z.string(),
    agent: z.enum(callAgents),
    to: z.string().meta({ description: "The guest's number, E.164" }),
    providerCallSid: z.string().nullable(),
    status: z.enum(callStatuses),
    error: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "Call" });

export const CallListQuery = z.strictObject({
  bookingId: Text.max(200).optional(),
  page: QueryInt(1, 100_000, 1),
  limit: QueryInt(1, 100, 20),
});

export const CallList = z.object({
  data: z.array(Call),
  pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int() }),
});

/**
 * A status callback as Twilio posts it (form-encoded). Only what we keep is read; the provider
 * sends many more fields (AccountSid, From, To, CallDuration, Timestamp …), which are signed and
 * then ignored.
 */
export const CallStatusCallback = z.object({
  CallSid: Text.min(1).max(64),
  CallStatus: z.enum(providerCallStatuses),
  ErrorCode: Text.max(16).optional(),
  ErrorMessage: Text.max(500).optional(),
});

export const PROVIDER_SIGNATURE_HEADER = {
  name: "X-Twilio-Signature",
  required: true,
  description:
    "Base64 HMAC-SHA1, keyed with CALLS_AUTH_TOKEN, of the public URL ({APP_URL}/api/calls/webhook) followed by every " +
    "POST field's name and value, sorted by name. A missing or wrong signature is 403 and changes nothing.",
};
