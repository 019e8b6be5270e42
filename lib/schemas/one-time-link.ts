import { z } from "zod";
import { PathSegment, Timestamp, WholeNumber } from "./common";
import { PublicEventPage, PublicTeamEventPage } from "./booking";

// One-time links (decisions §21): a secret address that books an event type once, also while it
// is switched off for the public. The address is in the creation's answer only.

export const MIN_LINK_DAYS = 1;
export const MAX_LINK_DAYS = 90;

export const CreateOneTimeLinkBody = z.strictObject({
  expiresInDays: WholeNumber(MIN_LINK_DAYS, MAX_LINK_DAYS, "days").optional().meta({ description: "Days until the link stops working (default 7)", example: 7 }),
});

export const OneTimeLinkParams = z.object({ eventTypeId: PathSegment, linkId: PathSegment });
export const TeamOneTimeLinksParams = z.object({ teamId: PathSegment, eventTypeId: PathSegment });
export const TeamOneTimeLinkParams = z.object({ teamId: PathSegment, eventTypeId: PathSegment, linkId: PathSegment });

export const OneTimeLink = z
  .object({
    id: z.string().meta({ example: "otl_3q8PZ0c1Zr2V9f4uWbq2Cg" }),
    createdAt: Timestamp,
    expiresAt: Timestamp.meta({ description: "When the link stops working if it is not used before" }),
  })
  .meta({ id: "OneTimeLink" });

export const CreatedOneTimeLink = OneTimeLink.extend({
  url: z.string().meta({ description: "The link ({APP_URL}/d/{token}): shown in this answer only, never again", example: "https://cal.example.com/d/Xq3vA…" }),
}).meta({ id: "CreatedOneTimeLink" });

export const OneTimeLinkList = z.object({ data: z.array(OneTimeLink).meta({ description: "The links that can still book, newest first" }) });

export const LinkParams = z.object({ token: PathSegment });

/** The answer of a link's public routes once it can no longer book. */
export const LINK_GONE = { status: 410, description: "gone: the link was used, has expired or was withdrawn by the host (details.reason: used, expired or withdrawn)" };

/** What a one-time link's page shows: the event type as guests see it, and its host (personal) or team. */
export const PublicLinkPage = z
  .object({
    host: PublicEventPage.shape.host.nullable().meta({ description: "A personal event type's host; null for a team's" }),
    team: PublicTeamEventPage.shape.team.nullable().meta({ description: "A team event type's team; null for a personal one" }),
    schedulingType: PublicTeamEventPage.shape.schedulingType.nullable().meta({ description: "A team event type's; null for a personal one" }),
    hosts: PublicTeamEventPage.shape.hosts,
    eventType: PublicEventPage.shape.eventType,
    expiresAt: Timestamp.meta({ description: "When the link stops working if it is not used before" }),
  })
  .meta({ id: "PublicLinkPage" });
