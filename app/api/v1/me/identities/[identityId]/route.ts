// DELETE /api/v1/me/identities/{identityId} – unlink a company sign-in, unless it is the account's last way in
import { endpoint, json, route } from "@/lib/http/route";
import { IdentityParams } from "@/lib/schemas/identity";
import { unlinkIdentity } from "@/lib/services/accounts/identities";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/identities/{identityId}", {
  DELETE: route(
    {
      auth: "host",
      summary: "Unlink a company sign-in (OpenID Connect) from the account; it can sign in again only by being linked anew",
      tags: ["Account"],
      params: IdentityParams,
      responses: { 204: { description: "Unlinked" } },
      errors: [
        404,
        {
          status: 409,
          description:
            "conflict: it is the account's last way in (the account has no password, or passwords are turned off on this server, and no other identity); the message says what to do",
        },
      ],
    },
    async ({ db, host, params }) => {
      await unlinkIdentity(db, host, params.identityId);
      return json(undefined, { status: 204 });
    },
  ),
});
