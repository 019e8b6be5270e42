// POST /api/v1/auth/password-reset/confirm – set a new password with an emailed reset link
import { endpoint, json, route } from "@/lib/http/route";
import { ConfirmPasswordResetBody, MessageResult } from "@/lib/schemas/account";
import { RESET_CONFIRMS_PER_ADDRESS, confirmPasswordReset } from "@/lib/services/accounts/password-reset";
import { requirePasswordLogin } from "@/lib/services/accounts/password-policy";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/auth/password-reset/confirm", {
  POST: route(
    {
      auth: "none",
      summary:
        "Set a new password with the token of a reset link. The link is spent, and every earlier bearer token and dashboard session of the account stops working",
      tags: ["Account"],
      precondition: requirePasswordLogin,
      body: ConfirmPasswordResetBody,
      responses: { 200: { description: "The password is changed; log in with it", schema: MessageResult } },
      errors: [{ status: 400, description: "validation_error: the new password's rules, or `token` is unknown, used or expired" }, { status: 403, description: "forbidden: password sign-in is turned off on this server (PASSWORD_LOGIN=off); nothing changes" }, 429],
      ipLimit: RESET_CONFIRMS_PER_ADDRESS,
    },
    async ({ db, body }) => {
      await confirmPasswordReset(db, body);
      return json({ message: "Your password is changed. Log in with the new one." });
    },
  ),
});
