// GET /api/v1/me/identities – the host's linked company sign-ins (OIDC), and whether the account has a password
import { getConfig } from "@/lib/config";
import { toIdentity } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { IdentityList } from "@/lib/schemas/identity";
import { listIdentities } from "@/lib/services/accounts/identities";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/identities", {
  GET: route(
    {
      auth: "host",
      summary: "List the account's linked company sign-ins (OpenID Connect), oldest first, with whether it has a password and what this server offers",
      tags: ["Account"],
      responses: { 200: { description: "The identities (provider, email, when linked and last used)", schema: IdentityList } },
    },
    async ({ db, host }) => {
      const { oidc, passwordLogin } = getConfig();
      const provider = oidc?.name ?? "Company sign-in";
      return json({
        data: (await listIdentities(db, host)).map((i) => toIdentity(i, provider)),
        hasPassword: host.passwordHash !== null,
        passwordLogin,
        oidc: oidc ? { name: oidc.name } : null,
      });
    },
  ),
});
