// POST /api/v1/auth/password-reset – email a link that sets a new password
import { endpoint, json, route } from "@/lib/http/route";
import { MessageResult, PasswordResetBody } from "@/lib/schemas/account";
import { RESET_REQUESTED_MESSAGE, RESET_REQUESTS_PER_ADDRESS, requestPasswordReset } from "@/lib/services/accounts/password-reset";
import { requirePasswordLogin } from "@/lib/services/accounts/password-policy";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/auth/password-reset", {
  POST: route(
    {
      auth: "none",
      summary:
        "Ask for a password reset link by email. The answer is the same whether or not the address has an account; the link works once, for an hour, and replaces earlier ones. At most 3 mails an hour per address (more requests still answer 202 and send nothing), 5 requests per 15 minutes per client address",
      tags: ["Account"],
      precondition: requirePasswordLogin,
      body: PasswordResetBody,
      responses: { 202: { description: "Accepted; a link is emailed if the address has an account", schema: MessageResult } },
      errors: [400, { status: 403, description: "forbidden: password sign-in is turned off on this server (PASSWORD_LOGIN=off); nothing changes" }, 429],
      ipLimit: RESET_REQUESTS_PER_ADDRESS,
    },
    async ({ db, body }) => {
      await requestPasswordReset(db, body.email);
      return json({ message: RESET_REQUESTED_MESSAGE }, { status: 202 });
    },
  ),
});
