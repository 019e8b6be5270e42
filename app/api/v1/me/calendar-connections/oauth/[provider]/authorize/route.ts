// GET /api/v1/me/calendar-connections/oauth/{provider}/authorize – 302 to the provider's consent screen
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { endpoint, route } from "@/lib/http/route";
import { OAuthProviderParams } from "@/lib/schemas/calendar";
import { startOAuth } from "@/lib/services/calendars";

const redirect = (location: string) => new Response(null, { status: 302, headers: { location, "cache-control": "no-store" } });

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/calendar-connections/oauth/{provider}/authorize", {
  GET: route(
    {
      auth: "host",
      summary: "Start connecting Google (provider_a) or Microsoft (provider_b): redirects to the consent screen",
      tags: ["Calendars"],
      params: OAuthProviderParams,
      responses: {
        302: {
          description:
            "To the provider's consent screen (offline access, calendar scopes, PKCE, a sealed state valid 10 minutes); a browser asking for a provider this server has no OAuth client for goes back to /dashboard/calendars?error=not_configured",
        },
      },
      errors: [{ status: 503, description: "provider_unavailable: the provider's OAuth client is not configured on this server" }],
    },
    async ({ req, host, params }) => {
      try {
        return redirect(startOAuth(host, params.provider));
      } catch (error) {
        // The dashboard's Connect button is a plain navigation: the host sees the reason on the
        // calendars page rather than a JSON error. API clients get the JSON 503.
        const browser = req.headers.get("accept")?.includes("text/html");
        if (browser && error instanceof AppError && error.code === "provider_unavailable") {
          return redirect(`${getConfig().appUrl}/dashboard/calendars?error=not_configured`);
        }
        throw error;
      }
    },
  ),
});
