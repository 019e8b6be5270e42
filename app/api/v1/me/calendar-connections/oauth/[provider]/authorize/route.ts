// GET /api/v1/me/calendar-connections/oauth/{provider}/authorize – 302 to the provider's consent screen
import { endpoint, route } from "@/lib/http/route";
import { OAuthProviderParams } from "@/lib/schemas/calendar";
import { startOAuth } from "@/lib/services/calendars";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/calendar-connections/oauth/{provider}/authorize", {
  GET: route(
    {
      auth: "host",
      summary: "Start connecting Google (provider_a) or Microsoft (provider_b): redirects to the consent screen",
      tags: ["Calendars"],
      params: OAuthProviderParams,
      responses: { 302: { description: "To the provider's consent screen (offline access, calendar scopes, PKCE, a sealed state valid 10 minutes)" } },
      errors: [{ status: 503, description: "provider_unavailable: the provider's OAuth client is not configured on this server" }],
    },
    async ({ host, params }) =>
      new Response(null, { status: 302, headers: { location: startOAuth(host, params.provider), "cache-control": "no-store" } }),
  ),
});
