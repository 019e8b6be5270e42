// POST /api/v1/hooks/provider_a – Google Calendar's push notifications (watch channels)
import { CALENDAR_HOOKS_LIMIT, endpoint, route } from "@/lib/http/route";
import { parseWith } from "@/lib/http/parse";
import { GOOGLE_HOOK_HEADERS, GoogleHookHeaders } from "@/lib/schemas/calendar-hooks";
import { receiveGoogleNotification } from "@/lib/services/calendars/push-receive";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/hooks/provider_a", {
  POST: route(
    {
      auth: "none",
      summary:
        "A Google Calendar change notification: when it names one of our channels with that channel's token, the connection is synced within seconds. Answered 200 whatever it names (a forged or stale one changes nothing)",
      tags: ["Calendars"],
      ipLimit: CALENDAR_HOOKS_LIMIT,
      headers: GOOGLE_HOOK_HEADERS,
      responses: { 200: { description: "Received (the sync runs after the answer)" } },
      errors: [{ status: 400, description: "The X-Goog-Channel-ID or X-Goog-Resource-State header is missing (validation_error)" }],
    },
    async ({ req, db }) => {
      const headers = parseWith(GoogleHookHeaders, Object.fromEntries(req.headers), "request headers");
      await receiveGoogleNotification(db, {
        channelId: headers["x-goog-channel-id"],
        token: headers["x-goog-channel-token"],
        resourceId: headers["x-goog-resource-id"],
        resourceState: headers["x-goog-resource-state"],
      });
      return new Response(null, { status: 200 });
    },
  ),
});
