// GET /api/v1/me/identities – the host's linked company sign-ins (OIDC), and whether the account has a password
import { endpoint, json, route } from "@/lib/http/route";
import { IdentityList } from "@/lib/schemas/identity";
import { identityListOf } from "@/lib/services/accounts/identities";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/identities", {
  GET: route(
    {
      auth: "host",
      summary: "List the account's linked company sign-ins (OpenID Connect), oldest first, with whether it has a password and what this server offers",
      tags: ["Account"],
      responses: { 200: { description: "The identities (provider, email, when linked and last used)", schema: IdentityList } },
    },
    async ({ db, host }) => json(await identityListOf(db, host)),
  ),
});
