// POST /api/v1/auth/register – a host creates an account
import { toRegisteredUser } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { RegisterBody, RegisteredUser } from "@/lib/schemas/account";
import { registerHost } from "@/lib/services/register-host";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/auth/register", {
  POST: route(
    {
      auth: "none",
      summary: "Register a host account",
      tags: ["Account"],
      body: RegisterBody,
      responses: { 201: { description: "The new account", schema: RegisteredUser } },
      errors: [400, 409],
    },
    async ({ db, body }) => json(toRegisteredUser(await registerHost(db, body)), { status: 201 }),
  ),
});
