// POST /api/v1/auth/login – exchange email and password for a bearer token
import { clientIp } from "@/lib/http/client-ip";
import { endpoint, json, route } from "@/lib/http/route";
import { LoginBody, LoginResult } from "@/lib/schemas/account";
import { logIn } from "@/lib/services/accounts/log-in";
import { requirePasswordLogin } from "@/lib/services/accounts/password-policy";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/auth/login", {
  POST: route(
    {
      auth: "none",
      summary: "Log in and receive a bearer token",
      tags: ["Account"],
      precondition: requirePasswordLogin,
      body: LoginBody,
      responses: { 200: { description: "A bearer token", schema: LoginResult } },
      errors: [
        400,
        401,
        { status: 403, description: "forbidden: password sign-in is turned off on this server (PASSWORD_LOGIN=off); nothing changes" },
        {
          status: 429,
          description:
            "Too many attempts: 10 per 15 minutes for one client address and email, or LIMIT_LOGIN (default 100 per 15 minutes) from one client address; a successful login gives its attempt back, so only failures add up",
        },
      ],
    },
    async ({ db, req, body }) => json(await logIn(db, body, clientIp(req))),
  ),
});
