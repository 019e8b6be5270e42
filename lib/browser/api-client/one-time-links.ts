import { queryOptions } from "@tanstack/react-query";
import { api, dataOf, type Schemas } from "./client";
import { eventTypeKeys, type EventTypeOwner } from "./event-types";

// One-time links of an event type (decisions §21), the host's own or a team's: made (the address
// shown once), listed while they can book, withdrawn.

export type OneTimeLinkDto = Schemas["OneTimeLink"];
export type CreatedOneTimeLinkDto = Schemas["CreatedOneTimeLink"];

export const oneTimeLinkKeys = { list: (owner: EventTypeOwner, eventTypeId: string) => [...eventTypeKeys.list(owner), eventTypeId, "one-time-links"] as const };

const mine = (eventTypeId: string) => ({ params: { path: { eventTypeId } } });
const teams = (teamId: string, eventTypeId: string) => ({ params: { path: { teamId, eventTypeId } } });

export const oneTimeLinksQuery = (owner: EventTypeOwner, eventTypeId: string) =>
  queryOptions({
    queryKey: oneTimeLinkKeys.list(owner, eventTypeId),
    queryFn: async () =>
      (owner.kind === "me"
        ? await dataOf(api.GET("/me/event-types/{eventTypeId}/one-time-links", mine(eventTypeId)))
        : await dataOf(api.GET("/me/teams/{teamId}/event-types/{eventTypeId}/one-time-links", teams(owner.teamId, eventTypeId)))
      ).data,
  });

export const createOneTimeLink = (owner: EventTypeOwner, eventTypeId: string, expiresInDays: number): Promise<CreatedOneTimeLinkDto> =>
  owner.kind === "me"
    ? dataOf(api.POST("/me/event-types/{eventTypeId}/one-time-links", { ...mine(eventTypeId), body: { expiresInDays } }))
    : dataOf(api.POST("/me/teams/{teamId}/event-types/{eventTypeId}/one-time-links", { ...teams(owner.teamId, eventTypeId), body: { expiresInDays } }));

export const deleteOneTimeLink = (owner: EventTypeOwner, eventTypeId: string, linkId: string) =>
  owner.kind === "me"
    ? dataOf(api.DELETE("/me/event-types/{eventTypeId}/one-time-links/{linkId}", { params: { path: { eventTypeId, linkId } } }))
    : dataOf(api.DELETE("/me/teams/{teamId}/event-types/{eventTypeId}/one-time-links/{linkId}", { params: { path: { teamId: owner.teamId, eventTypeId, linkId } } }));
