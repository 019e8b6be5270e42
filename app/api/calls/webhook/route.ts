// POST /api/calls/webhook – the telephony provider's status callbacks (signed, form-encoded)
import { CALLS_PATHS } from "@/lib/calls/descriptor";
import { callsProviderOrThrow, verifyProviderRequest } from "@/lib/calls/provider";
import { endpoint, json, route } from "@/lib/http/route";
import { CallStatusCallback, PROVIDER_SIGNATURE_HEADER } from "@/lib/schemas/calls";
import { recordCallStatus } from "@/lib/services/calls/status";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint(
  CALLS_PATHS.webhook,
  {
    POST: route(
      {
        auth: "none",
        summary: "Status callback of the telephony provider (Twilio's format): moves the call record's status forward",
        tags: ["Outbound calls"],
        precondition: callsProviderOrThrow,
        bodyFormat: "form",
        verify: verifyProviderRequest,
        body: CallStatusCallback,
        headers: [PROVIDER_SIGNATURE_HEADER],
        responses: { 204: { description: "Recorded (a repeated or out-of-order callback changes nothing)" } },
        errors: [
          { status: 403, description: "Missing or wrong X-Twilio-Signature (forbidden): nothing is changed" },
          { status: 404, description: "No call with this CallSid (not_found)" },
          { status: 503, description: "No telephony credentials are configured, so no signature can be checked (provider_unavailable)" },
        ],
      },
      async ({ db, body }) => {
        const error = body.ErrorMessage ?? (body.ErrorCode ? `provider error ${body.ErrorCode}` : undefined);
        await recordCallStatus(db, { callSid: body.CallSid, status: body.CallStatus, error, now: Date.now() });
        return json(undefined, { status: 204 });
      },
    ),
  },
  { prefix: "" },
);
