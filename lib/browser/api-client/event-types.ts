import { queryOptions } from "@tanstack/react-query";
import { api, dataOf, type AnswerOf, type BodyOf, type Schemas } from "./client";

// Event types, the host's own and a team's alike (a personal event type is a team of one): every
// function takes the owner, whose place in the API (/me/event-types, /me/teams/{id}/event-types)
// is also its place in the query cache. Members read a team's; owners change them (decisions §15).

/** Whose event types: the host's own, or a team's. */
export type EventTypeOwner = { kind: "me" } | { kind: "team"; teamId: string };
type TeamOwner = Extract<EventTypeOwner, { kind: "team" }>;

/** A personal event type; the fields every event type has. */
export type EventTypeDto = Schemas["EventType"];
/** A team's: also its team's id, how bookings go to the hosts, and the hosts. */
export type TeamEventTypeDto = Schemas["TeamEventType"];
export type SchedulingType = TeamEventTypeDto["schedulingType"];

/** What the API answers and takes for an owner's event types. */
export type EventTypeOf<O extends EventTypeOwner> = O extends TeamOwner ? TeamEventTypeDto : EventTypeDto;
export type EventTypeInputOf<O extends EventTypeOwner> = O extends TeamOwner
  ? BodyOf<"/me/teams/{teamId}/event-types", "post">
  : BodyOf<"/me/event-types", "post">;
export type EventTypeChangeOf<O extends EventTypeOwner> = O extends TeamOwner
  ? BodyOf<"/me/teams/{teamId}/event-types/{eventTypeId}", "patch">
  : BodyOf<"/me/event-types/{eventTypeId}", "patch">;
/** Why a start is or is not bookable; a team's answer also says it for each host. */
export type ExplanationOf<O extends EventTypeOwner> = O extends TeamOwner
  ? AnswerOf<"/me/teams/{teamId}/event-types/{eventTypeId}/explain", "get">
  : AnswerOf<"/me/event-types/{eventTypeId}/explain", "get">;
export type ExplanationDto = ExplanationOf<{ kind: "me" }>;

/** The owner's place, as path segments: the API's and the cache's. */
const ownerSegments = (owner: EventTypeOwner): string[] => (owner.kind === "me" ? ["me"] : ["me", "teams", owner.teamId]);

/**
 * ["me", "event-types"] and ["me", "teams", teamId, "event-types"]: a team's sit under the teams'
 * key, so invalidating the teams refreshes them too.
 */
export const eventTypeKeys = { list: (owner: EventTypeOwner) => [...ownerSegments(owner), "event-types"] as const };

// Each call below asks one of two paths of the document, by owner. The answer's type follows the
// owner (EventTypeOf<O>), which TypeScript cannot narrow a generic to: hence the casts, each to
// the type of the very path asked.

// A team's bodies may carry `scheduleId: null` and `conflictCalendars: null` (the document's type
// for each is null alone). The types of openapi-fetch 0.17 read a property whose only value is
// null as a read-only one and refuse it in a body, so a team's body is handed over without those
// keys in its type; the values still go out, and the API accepts them.
type TeamBody<B> = Omit<B, "scheduleId" | "conflictCalendars">;

const team = (owner: TeamOwner) => ({ params: { path: { teamId: owner.teamId } } });
const oneOfTeam = (owner: TeamOwner, eventTypeId: string) => ({ params: { path: { teamId: owner.teamId, eventTypeId } } });
const one = (eventTypeId: string) => ({ params: { path: { eventTypeId } } });

export const eventTypesQuery = <O extends EventTypeOwner>(owner: O) =>
  queryOptions({
    queryKey: eventTypeKeys.list(owner),
    queryFn: async () =>
      (owner.kind === "me" ? (await dataOf(api.GET("/me/event-types"))).data : (await dataOf(api.GET("/me/teams/{teamId}/event-types", team(owner)))).data) as EventTypeOf<O>[],
  });

export const createEventType = <O extends EventTypeOwner>(owner: O, input: EventTypeInputOf<O>) =>
  (owner.kind === "me"
    ? dataOf(api.POST("/me/event-types", { body: input as EventTypeInputOf<{ kind: "me" }> }))
    : dataOf(api.POST("/me/teams/{teamId}/event-types", { ...team(owner), body: input as TeamBody<EventTypeInputOf<TeamOwner>> }))) as Promise<EventTypeOf<O>>;

export const updateEventType = <O extends EventTypeOwner>(owner: O, id: string, change: EventTypeChangeOf<O>) =>
  (owner.kind === "me"
    ? dataOf(api.PATCH("/me/event-types/{eventTypeId}", { ...one(id), body: change as EventTypeChangeOf<{ kind: "me" }> }))
    : dataOf(api.PATCH("/me/teams/{teamId}/event-types/{eventTypeId}", { ...oneOfTeam(owner, id), body: change as TeamBody<EventTypeChangeOf<TeamOwner>> }))) as Promise<EventTypeOf<O>>;

/** The hidden event type (it has bookings), or undefined when it was removed. */
export const deleteEventType = <O extends EventTypeOwner>(owner: O, id: string) =>
  (owner.kind === "me"
    ? dataOf(api.DELETE("/me/event-types/{eventTypeId}", one(id)))
    : dataOf(api.DELETE("/me/teams/{teamId}/event-types/{eventTypeId}", oneOfTeam(owner, id)))) as Promise<EventTypeOf<O> | undefined>;

export const explainTime = <O extends EventTypeOwner>(owner: O, id: string, startTime: string) =>
  (owner.kind === "me"
    ? dataOf(api.GET("/me/event-types/{eventTypeId}/explain", { params: { path: { eventTypeId: id }, query: { startTime } } }))
    : dataOf(api.GET("/me/teams/{teamId}/event-types/{eventTypeId}/explain", { params: { path: { teamId: owner.teamId, eventTypeId: id }, query: { startTime } } }))) as Promise<
    ExplanationOf<O>
  >;
