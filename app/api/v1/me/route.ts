// GET, PATCH /api/v1/me – the host's own profile
import { toProfile } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { Profile, UpdateProfileBody } from "@/lib/schemas/account";
import { updateProfile } from "@/lib/services/accounts/update-profile";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me", {
  GET: route(
    {
      auth: "host",
      summary: "The current host's profile",
      tags: ["Account"],
      responses: { 200: { description: "The profile", schema: Profile } },
    },
    async ({ host }) => json(toProfile(host)),
  ),
  PATCH: route(
    {
      auth: "host",
      summary:
        "Update name, username, timezone or avatar. A new username moves the public pages: /{old} and /{old}/{slug} answer 404 from then on",
      tags: ["Account"],
      body: UpdateProfileBody,
      responses: { 200: { description: "The updated profile", schema: Profile } },
      errors: [400, { status: 409, description: "conflict: the username is taken (details.field = username)" }],
    },
    async ({ db, host, body }) => json(toProfile(await updateProfile(db, host, body))),
  ),
});
