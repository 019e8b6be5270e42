// POST /api/v1/auth/register – a host creates an account
import { getConfig } from "@/lib/config";
import { toRegisteredUser } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { RegisterBody, RegisteredUser } from "@/lib/schemas/account";
import { registerHost } from "@/lib/services/accounts/register";
import { requirePasswordLogin } from "@/lib/services/accounts/password-policy";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/auth/register", {
  POST: route(
    {
      auth: "none",
      summary: "Register a host account (10 per hour per client address by default, LIMIT_REGISTER)",
      tags: ["Account"],
      precondition: requirePasswordLogin,
      body: RegisterBody,
      responses: { 201: { description: "The new account", schema: RegisteredUser } },
      errors: [400, { status: 403, description: "forbidden: password sign-in is turned off on this server (PASSWORD_LOGIN=off); nothing changes" }, 409],
      // Sign-ups from one address (10 an hour by default, LIMIT_REGISTER): each costs an argon2
      // hash, and the 409 for a taken email must not become an enumeration tool.
      ipLimit: () => {
        const rule = getConfig().addressLimits.register;
        return rule && { name: "register", ...rule };
      },
    },
    async ({ db, body }) => json(toRegisteredUser(await registerHost(db, body)), { status: 201 }),
  ),
});
