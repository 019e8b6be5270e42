// POST /api/v1/auth/email-change/confirm – the link at the new address: the email changes now
import { endpoint, json, route } from "@/lib/http/route";
import { ConfirmEmailChangeBody, MessageResult } from "@/lib/schemas/account";
import { confirmEmailChange } from "@/lib/services/accounts/email-change";

// No session needed: the link may be opened on another device than the one that asked.
const CONFIRMS_PER_ADDRESS = { name: "email-change-confirm", limit: 20, windowSeconds: 15 * 60 };

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/auth/email-change/confirm", {
  POST: route(
    {
      auth: "none",
      summary: "Confirm a new email with the token of the link mailed to it: the account's email changes (and counts as verified); the link is spent",
      tags: ["Account"],
      body: ConfirmEmailChangeBody,
      responses: { 200: { description: "The email is changed", schema: MessageResult } },
      errors: [
        { status: 400, description: "validation_error: `token` is unknown, used or expired" },
        { status: 409, description: "conflict: another account took the address meanwhile" },
        429,
      ],
      ipLimit: CONFIRMS_PER_ADDRESS,
    },
    async ({ db, body }) => {
      const { email } = await confirmEmailChange(db, body.token);
      return json({ message: `Your email is now ${email}. Use it to log in.` });
    },
  ),
});
