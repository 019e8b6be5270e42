// POST /api/v1/me/password – change the password; every earlier token and session ends
import { clientIp } from "@/lib/http/client-ip";
import { endpoint, json, route } from "@/lib/http/route";
import { ChangePasswordBody, LoginResult } from "@/lib/schemas/account";
import { changePassword } from "@/lib/services/accounts/sessions";
import { requirePasswordLogin } from "@/lib/services/accounts/password-policy";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/password", {
  POST: route(
    {
      auth: "host",
      summary:
        "Change the password. The current one is checked like a login (same limits); on success every earlier bearer token and dashboard session stops working, and the answer carries a new token",
      tags: ["Account"],
      precondition: requirePasswordLogin,
      body: ChangePasswordBody,
      responses: { 200: { description: "Changed; a new bearer token (the one used for this request no longer works)", schema: LoginResult } },
      errors: [{ status: 400, description: "validation_error: the new password's rules, or `currentPassword` is incorrect, or the account has no password yet (set one by a reset link)" }, { status: 403, description: "forbidden: password sign-in is turned off on this server (PASSWORD_LOGIN=off); nothing changes" }, 429],
    },
    async ({ db, req, host, body }) => json(await changePassword(db, host, body, clientIp(req))),
  ),
});
