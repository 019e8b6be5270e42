// GET, POST /api/v1/me/teams/{teamId}/event-types/{eventTypeId}/one-time-links – a team event type's one-time links
import { toOneTimeLink } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { CreatedOneTimeLink, CreateOneTimeLinkBody, OneTimeLinkList, TeamOneTimeLinksParams } from "@/lib/schemas/one-time-link";
import { createOneTimeLink, listOneTimeLinks } from "@/lib/services/event-types/one-time-links";
import { teamOwner } from "@/lib/services/event-types/owner";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/teams/{teamId}/event-types/{eventTypeId}/one-time-links", {
  GET: route(
    {
      auth: "host",
      summary: "A team event type's one-time links that can still book, newest first (active members)",
      tags: ["Teams"],
      params: TeamOneTimeLinksParams,
      responses: { 200: { description: "The links, without their addresses (shown once, when made)", schema: OneTimeLinkList } },
      errors: [{ status: 403, description: "forbidden: the caller has not accepted the invitation yet" }, 404],
    },
    async ({ db, host, params }) => json({ data: (await listOneTimeLinks(db, teamOwner(host, params.teamId), params.eventTypeId)).map(toOneTimeLink) }),
  ),
  POST: route(
    {
      auth: "host",
      summary: "Make a one-time link for a team event type (owners); the address is in this answer only",
      tags: ["Teams"],
      params: TeamOneTimeLinksParams,
      body: CreateOneTimeLinkBody,
      responses: { 201: { description: "The new link and its address ({APP_URL}/d/{token})", schema: CreatedOneTimeLink } },
      errors: [{ status: 403, description: "forbidden: only the team's active owners may do this" }, 404],
    },
    async ({ db, host, params, body }) => {
      const { row, url } = await createOneTimeLink(db, teamOwner(host, params.teamId), params.eventTypeId, body);
      return json({ ...toOneTimeLink(row), url }, { status: 201 });
    },
  ),
});
