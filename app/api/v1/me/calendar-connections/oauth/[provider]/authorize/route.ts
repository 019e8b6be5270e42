// GET /api/v1/me/calendar-connections/oauth/{provider}/authorize – 302 to the provider's consent screen
import { AppError } from "@/lib/errors";
import { endpoint, route } from "@/lib/http/route";
import { OAuthProviderParams } from "@/lib/schemas/calendar";
import { oauthNonceCookie, startOAuth } from "@/lib/services/calendars/oauth";
import { siteUrl } from "@/lib/links";

const redirect = (location: string, headers: Record<string, string> = {}) =>
  new Response(null, { status: 302, headers: { location, "cache-control": "no-store", ...headers } });

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
            "To the provider's consent screen (offline access, calendar scopes, PKCE, a sealed state valid 10 minutes and usable once); a browser asking for a provider this server has no OAuth client for goes back to /dashboard/calendars?error=not_configured. " +
            "The flow is bound to the browser that finishes it: this response sets an HttpOnly cookie (`oauth_nonce`, `__Host-oauth_nonce` on https) holding a nonce whose hash is sealed into the state, and the callback connects the calendar only for a browser that holds that cookie, or that is signed in to the dashboard as the same host. " +
            "An API client (bearer token) therefore opens the Location URL in a browser signed in to the dashboard as the same host; opened anywhere else, the callback connects nothing (400).",
        },
      },
      errors: [{ status: 503, description: "provider_unavailable: the provider's OAuth client is not configured on this server" }],
    },
    async ({ req, host, params }) => {
      try {
        const { consentUrl, nonce } = startOAuth(host, params.provider);
        return redirect(consentUrl, { "set-cookie": oauthNonceCookie(nonce) });
      } catch (error) {
        // The dashboard's Connect button is a plain navigation: the host sees the reason on the
        // calendars page rather than a JSON error. API clients get the JSON 503.
        const browser = req.headers.get("accept")?.includes("text/html");
        if (browser && error instanceof AppError && error.code === "provider_unavailable") {
          return redirect(siteUrl("/dashboard/calendars?error=not_configured"));
        }
        throw error;
      }
    },
  ),
});
