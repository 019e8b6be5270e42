// DELETE /api/v1/me/teams/{teamId}/event-types/{eventTypeId}/one-time-links/{linkId} – withdraw a team event type's link
import { endpoint, json, route } from "@/lib/http/route";
import { TeamOneTimeLinkParams } from "@/lib/schemas/one-time-link";
import { deleteOneTimeLink } from "@/lib/services/event-types/one-time-links";
import { teamOwner } from "@/lib/services/event-types/owner";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/teams/{teamId}/event-types/{eventTypeId}/one-time-links/{linkId}", {
  DELETE: route(
    {
      auth: "host",
      summary: "Withdraw a team event type's one-time link that was not used yet (owners)",
      tags: ["Teams"],
      params: TeamOneTimeLinkParams,
      responses: { 204: { description: "Withdrawn" } },
      errors: [{ status: 403, description: "forbidden: only the team's active owners may do this" }, 404],
    },
    async ({ db, host, params }) => {
      await deleteOneTimeLink(db, teamOwner(host, params.teamId), params.eventTypeId, params.linkId);
      return json(undefined, { status: 204 });
    },
  ),
});
