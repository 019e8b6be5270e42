// POST /api/v1/contracts/social-page/validate – check a record against its media contract
import { ValidateSocialRecordBody } from "@/lib/schemas/social-page";
import { endpoint, json, route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/contracts/social-page/validate", {
  POST: route(
    {
      auth: "none",
      summary: "Validate a content, image or video record; problems are listed at their paths (record.image.url)",
      tags: ["Contracts"],
      body: ValidateSocialRecordBody,
      responses: { 200: { description: "The record is valid: it comes back normalised (trimmed, #hashtags, UTC timestamps)", schema: ValidateSocialRecordBody } },
    },
    // The body was checked against the record's media contract by the wrapper: what is left is to answer it.
    async ({ body }) => json(body),
  ),
});
