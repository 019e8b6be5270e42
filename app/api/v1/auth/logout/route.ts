// POST /api/v1/auth/logout – sign out everywhere: every token and session of the account ends
import { endpoint, route } from "@/lib/http/route";
import { signOutEverywhere } from "@/lib/services/accounts/sessions";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/auth/logout", {
  POST: route(
    {
      auth: "host",
      summary:
        "Sign out everywhere: every bearer token and dashboard session of the account stops working at once, the one making this request too (tokens are stateless; the account's session version is raised)",
      tags: ["Account"],
      responses: { 204: { description: "Signed out everywhere; log in again for a new token" } },
    },
    async ({ db, host }) => {
      await signOutEverywhere(db, host);
      return new Response(null, { status: 204 });
    },
  ),
});
