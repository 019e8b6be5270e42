// POST /api/v1/me/email – change the email: a link to the new address confirms it
import { clientIp } from "@/lib/http/client-ip";
import { endpoint, json, route } from "@/lib/http/route";
import { ChangeEmailBody, MessageResult } from "@/lib/schemas/account";
import { EMAIL_CHANGE_REQUESTED_MESSAGE, requestEmailChange } from "@/lib/services/accounts/email-change";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/email", {
  POST: route(
    {
      auth: "host",
      summary:
        "Ask to change the account's email. The password is checked like a login (same limits); a link goes to the new address, and the email changes only when it is used (within an hour). A newer request replaces the earlier link. The answer is 202 whether or not the new address has an account (no lookup of who is a customer): an address that already has one gets no link, only a notice saying so. A pending change and unused password-reset links end when the password changes (here or by a reset), on sign-out everywhere, and when a change of address is confirmed",
      tags: ["Account"],
      body: ChangeEmailBody,
      responses: {
        202: {
          description: "Accepted, the same answer for every address: a confirmation link is on its way to the new address, or, when it already has an account, a notice that it has one",
          schema: MessageResult,
        },
      },
      errors: [{ status: 400, description: "validation_error: `newEmail` is malformed or already yours, or `password` is incorrect" }, 429],
    },
    async ({ db, req, host, body }) => {
      await requestEmailChange(db, host, body, clientIp(req));
      return json({ message: EMAIL_CHANGE_REQUESTED_MESSAGE }, { status: 202 });
    },
  ),
});
