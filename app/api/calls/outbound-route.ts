// The two agents' outbound endpoints are one route apart from the agent their path names.
import type { CallAgent } from "@/db/schema";
import { callsProviderOrThrow } from "@/lib/calls/provider";
import { json, route } from "@/lib/http/route";
import { Call, OutboundCallBody } from "@/lib/schemas/calls";
import { placeCall } from "@/lib/services/calls/place";

const summaries: Record<CallAgent, string> = {
  reminder: "The reminder agent calls the guest of an upcoming booking: what, with whom and when, in the guest's timezone",
  followup: "The follow-up agent calls the guest of a cancelled or missed booking and offers to book again on the booking page",
};

const notApplicable: Record<CallAgent, string> = {
  reminder: "The booking is cancelled or has already started (booking_not_modifiable)",
  followup: "The booking is neither cancelled nor past (booking_not_modifiable)",
};

export function outboundCallRoute(agent: CallAgent) {
  return route(
    {
      auth: "host",
      summary: summaries[agent],
      tags: ["Outbound calls"],
      // Without credentials nothing here can work: say so before reading the request.
      precondition: callsProviderOrThrow,
      body: OutboundCallBody,
      responses: { 201: { description: "The call was placed; its record (status from the provider, usually queued)", schema: Call } },
      errors: [
        { status: 400, description: "Invalid body, or the booking has no phone answer (validation_error)" },
        { status: 404, description: "No such booking of yours (not_found)" },
        { status: 409, description: notApplicable[agent] },
        {
          status: 503,
          description: "No telephony credentials are configured, or the provider failed or did not answer in time (provider_unavailable); a failed call record is kept",
        },
      ],
    },
    async ({ db, host, body }) => json(await placeCall(db, host, agent, body.bookingId, Date.now()), { status: 201 }),
  );
}
