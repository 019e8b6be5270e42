// GET /api/v1/contracts/social-page – the social page channel contract's descriptor record
import { SocialPageDescriptor, socialPageDescriptor } from "@/lib/schemas/social-page";
import { endpoint, json, route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/contracts/social-page", {
  GET: route(
    {
      auth: "none",
      summary: "The social page channel contract (facebook page): its descriptor and media contracts",
      tags: ["Contracts"],
      responses: { 200: { description: "The descriptor record, version 1", schema: SocialPageDescriptor } },
    },
    async () => json(socialPageDescriptor()),
  ),
});
