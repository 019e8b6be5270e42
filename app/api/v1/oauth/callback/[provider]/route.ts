// GET /api/v1/oauth/callback/{provider} – the provider sends the browser back here after consent
import { bearerOfSession, sessionCookieOf } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { endpoint, route } from "@/lib/http/route";
import { OAuthCallbackQuery, OAuthProviderParams } from "@/lib/schemas/calendar";
import { completeOAuth, InvalidOAuthState, oauthNonceCookie, oauthNonceOf } from "@/lib/services/calendars/oauth";
import { siteUrl } from "@/lib/links";

/**
 * The person's browser lands here from the provider: it gets a page it can show. Any other
 * client (Accept without text/html) gets the API's JSON error, like everywhere under /api/v1.
 */
function invalidState(req: Request, message: string): Response {
  if (!req.headers.get("accept")?.includes("text/html")) throw new AppError("validation_error", message, { issues: [{ path: "state", message }] });
  return invalidStatePage(message);
}

function invalidStatePage(message: string): Response {
  const dashboard = siteUrl("/dashboard/calendars");
  const escaped = message.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Calendar not connected</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 4rem auto; padding: 0 1rem; color: #0f172a">
<h1 style="font-size: 1.25rem">Calendar not connected</h1><p>${escaped}</p><p><a href="${dashboard}">Back to your calendars</a></p></body></html>`;
  return new Response(html, { status: 400, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/oauth/callback/{provider}", {
  GET: route(
    {
      auth: "none",
      summary: "OAuth callback: exchanges the code, stores the refresh token sealed, and redirects to the dashboard's calendars page",
      tags: ["Calendars"],
      params: OAuthProviderParams,
      query: OAuthCallbackQuery,
      responses: {
        302: { description: "To /dashboard/calendars?connected={provider}, or ?error={reason} when the person declined or the exchange failed" },
      },
      errors: [
        {
          status: 400,
          description:
            "The state is forged, expired, for another provider or already used, or this browser neither holds the nonce cookie authorize set nor is signed in to the dashboard as the host who started it; nothing was connected (a page for browsers, JSON otherwise)",
        },
      ],
    },
    async ({ req, db, params, query }) => {
      try {
        const cookies = req.headers.get("cookie");
        const session = sessionCookieOf(cookies);
        const browser = { nonce: oauthNonceOf(cookies), session: session ? await bearerOfSession(session) : null };
        const outcome = await completeOAuth(db, params.provider, query, browser);
        const target = new URL(siteUrl("/dashboard/calendars"));
        if (outcome.ok) target.searchParams.set("connected", params.provider);
        else target.searchParams.set("error", outcome.error);
        const headers = new Headers({ location: target.toString(), "cache-control": "no-store" });
        // The state is used up: its nonce is of no further use (another flow's nonce is kept).
        if (outcome.nonceUsed) headers.set("set-cookie", oauthNonceCookie(null));
        return new Response(null, { status: 302, headers });
      } catch (error) {
        if (error instanceof InvalidOAuthState) return invalidState(req, error.message);
        throw error;
      }
    },
  ),
});
