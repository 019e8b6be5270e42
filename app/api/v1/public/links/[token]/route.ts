// GET /api/v1/public/links/{token} – what a one-time link's booking page shows
import { toPublicEventType, toPublicHost } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { LINK_GONE, LinkParams, PublicLinkPage } from "@/lib/schemas/one-time-link";
import { personalHost } from "@/lib/services/bookable/bookable";
import { getLinkBookableOrThrow } from "@/lib/services/bookable/one-time-link";
import { isoUtc } from "@/lib/time/instants";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/public/links/{token}", {
  GET: route(
    {
      auth: "none",
      summary: "The event type behind a one-time link, as its public page shows it (also when it is switched off for the public), and its host or team",
      tags: ["Public booking"],
      params: LinkParams,
      responses: { 200: { description: "Host or team, and event type", schema: PublicLinkPage } },
      errors: [404, LINK_GONE],
    },
    async ({ db, params }) => {
      const { link, bookable } = await getLinkBookableOrThrow(db, params.token, Date.now());
      const { eventType, team, hosts } = bookable;
      return json({
        host: team ? null : toPublicHost(personalHost(bookable)),
        team: team ? { slug: team.slug, name: team.name } : null,
        schedulingType: team ? eventType.schedulingType! : null,
        hosts: hosts.map(({ host }) => toPublicHost(host)),
        // A link books one time: no series is offered through it.
        eventType: toPublicEventType({ ...eventType, recurrence: null }),
        expiresAt: isoUtc(link.expiresAt),
      });
    },
  ),
});
