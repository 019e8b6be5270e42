// POST /api/v1/hooks/provider_b – Microsoft Graph's subscription handshake and change notifications
import { CALENDAR_HOOKS_LIMIT, endpoint, route } from "@/lib/http/route";
import { GraphHookBody, GraphHookQuery } from "@/lib/schemas/calendar-hooks";
import { receiveGraphNotifications } from "@/lib/services/calendars/push-receive";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/hooks/provider_b", {
  POST: route(
    {
      auth: "none",
      summary:
        "Microsoft Graph: the validation handshake of a new subscription (?validationToken= echoed as text/plain), or change notifications; each one that names one of our subscriptions with its clientState syncs that connection within seconds. Answered 202 whatever they name (forged or stale ones change nothing)",
      tags: ["Calendars"],
      ipLimit: CALENDAR_HOOKS_LIMIT,
      query: GraphHookQuery,
      body: GraphHookBody,
      responses: {
        200: { description: "The handshake: the validationToken, as text/plain" },
        202: { description: "Notifications received (the sync runs after the answer)" },
      },
      errors: [{ status: 400, description: "A validationToken that is not printable text of at most 1024 characters, or a body that is no notification batch (validation_error)" }],
    },
    async ({ db, query, body }) => {
      if (query.validationToken !== undefined) {
        // Only the token, as plain text that no browser sniffs into HTML.
        return new Response(query.validationToken, {
          status: 200,
          headers: { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff", "cache-control": "no-store" },
        });
      }
      await receiveGraphNotifications(db, body.value);
      return new Response(null, { status: 202 });
    },
  ),
});
