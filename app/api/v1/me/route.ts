// GET, PATCH /api/v1/me – the host's own profile
import { toProfile } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { Profile, UpdateProfileBody } from "@/lib/schemas/account";
import { updateProfile } from "@/lib/services/update-profile";

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
      summary: "Update name, timezone or avatar",
      tags: ["Account"],
      body: UpdateProfileBody,
      responses: { 200: { description: "The updated profile", schema: Profile } },
      errors: [400],
    },
    async ({ db, host, body }) => json(toProfile(await updateProfile(db, host, body))),
  ),
});
