// GET, POST /api/v1/me/event-types/{eventTypeId}/one-time-links – list and make links that book the event type once
import { toOneTimeLink } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { EventTypeParams } from "@/lib/schemas/event-type";
import { CreatedOneTimeLink, CreateOneTimeLinkBody, OneTimeLinkList } from "@/lib/schemas/one-time-link";
import { createOneTimeLink, listOneTimeLinks } from "@/lib/services/event-types/one-time-links";
import { hostOwner } from "@/lib/services/event-types/owner";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/event-types/{eventTypeId}/one-time-links", {
  GET: route(
    {
      auth: "host",
      summary: "The event type's one-time links that can still book (not used, withdrawn or expired), newest first",
      tags: ["Event types"],
      params: EventTypeParams,
      responses: { 200: { description: "The links, without their addresses (shown once, when made)", schema: OneTimeLinkList } },
      errors: [404],
    },
    async ({ db, host, params }) => json({ data: (await listOneTimeLinks(db, hostOwner(host), params.eventTypeId)).map(toOneTimeLink) }),
  ),
  POST: route(
    {
      auth: "host",
      summary: "Make a one-time link: it books the event type once, also while the event type is switched off; the address is in this answer only",
      tags: ["Event types"],
      params: EventTypeParams,
      body: CreateOneTimeLinkBody,
      responses: { 201: { description: "The new link and its address ({APP_URL}/d/{token})", schema: CreatedOneTimeLink } },
      errors: [404],
    },
    async ({ db, host, params, body }) => {
      const { row, url } = await createOneTimeLink(db, hostOwner(host), params.eventTypeId, body);
      return json({ ...toOneTimeLink(row), url }, { status: 201 });
    },
  ),
});
