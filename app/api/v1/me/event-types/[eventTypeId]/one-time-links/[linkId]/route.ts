// DELETE /api/v1/me/event-types/{eventTypeId}/one-time-links/{linkId} – withdraw a link: its page says so (410)
import { endpoint, json, route } from "@/lib/http/route";
import { OneTimeLinkParams } from "@/lib/schemas/one-time-link";
import { deleteOneTimeLink } from "@/lib/services/event-types/one-time-links";
import { hostOwner } from "@/lib/services/event-types/owner";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/event-types/{eventTypeId}/one-time-links/{linkId}", {
  DELETE: route(
    {
      auth: "host",
      summary: "Withdraw a one-time link that was not used yet; opening it then answers 410 gone",
      tags: ["Event types"],
      params: OneTimeLinkParams,
      responses: { 204: { description: "Withdrawn" } },
      errors: [404],
    },
    async ({ db, host, params }) => {
      await deleteOneTimeLink(db, hostOwner(host), params.eventTypeId, params.linkId);
      return json(undefined, { status: 204 });
    },
  ),
});
