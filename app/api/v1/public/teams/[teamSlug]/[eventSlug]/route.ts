// GET /api/v1/public/teams/{teamSlug}/{eventSlug} – what a guest's team booking page shows
import { toPublicEventType, toPublicHost } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { PublicTeamEventPage, PublicTeamEventParams } from "@/lib/schemas/booking";
import { getPublicBookableCached } from "@/lib/services/bookable/bookable";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/public/teams/{teamSlug}/{eventSlug}", {
  GET: route(
    {
      auth: "none",
      summary: "The team, its hosts and the event type behind a team's public booking page",
      tags: ["Public booking"],
      params: PublicTeamEventParams,
      responses: { 200: { description: "Team, hosts and event type", schema: PublicTeamEventPage } },
      errors: [404],
    },
    async ({ db, params }) => {
      const { team, eventType, hosts } = await getPublicBookableCached(db, { teamSlug: params.teamSlug }, params.eventSlug);
      return json({
        team: { slug: team.slug, name: team.name },
        schedulingType: eventType.schedulingType!,
        hosts: hosts.map(({ host }) => toPublicHost(host)),
        eventType: toPublicEventType(eventType),
      });
    },
  ),
});
