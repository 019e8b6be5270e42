import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import type { CreateEventTypeBody, EventType, Explanation, TeamExplanation, UpdateEventTypeBody } from "@/lib/schemas/event-type";
import type { CreateTeamEventTypeBody, TeamEventType, UpdateTeamEventTypeBody } from "@/lib/schemas/team";
import { fetchJson } from "./fetch-json";

// Event types, the host's own and a team's alike (a personal event type is a team of one): every
// function takes the owner, whose place in the API (/me/event-types, /me/teams/{id}/event-types)
// is also its place in the query cache. Members read a team's; owners change them (decisions §15).

/** Whose event types: the host's own, or a team's. */
export type EventTypeOwner = { kind: "me" } | { kind: "team"; teamId: string };
type TeamOwner = Extract<EventTypeOwner, { kind: "team" }>;

/** A personal event type; the fields every event type has. */
export type EventTypeDto = z.output<typeof EventType>;
/** A team's: also its team's id, how bookings go to the hosts, and the hosts. */
export type TeamEventTypeDto = z.output<typeof TeamEventType>;
export type SchedulingType = TeamEventTypeDto["schedulingType"];

/** What the API answers and takes for an owner's event types. */
export type EventTypeOf<O extends EventTypeOwner> = O extends TeamOwner ? TeamEventTypeDto : EventTypeDto;
export type EventTypeInputOf<O extends EventTypeOwner> = O extends TeamOwner ? z.input<typeof CreateTeamEventTypeBody> : z.input<typeof CreateEventTypeBody>;
export type EventTypeChangeOf<O extends EventTypeOwner> = O extends TeamOwner ? z.input<typeof UpdateTeamEventTypeBody> : z.input<typeof UpdateEventTypeBody>;
/** Why a start is or is not bookable; a team's answer also says it for each host. */
export type ExplanationOf<O extends EventTypeOwner> = O extends TeamOwner ? z.output<typeof TeamExplanation> : z.output<typeof Explanation>;
export type ExplanationDto = ExplanationOf<{ kind: "me" }>;

/** The owner's place, as path segments: the API's and the cache's. */
const ownerSegments = (owner: EventTypeOwner): string[] => (owner.kind === "me" ? ["me"] : ["me", "teams", owner.teamId]);

const pathOf = (owner: EventTypeOwner, ...rest: string[]) => `/${[...ownerSegments(owner), "event-types", ...rest].map(encodeURIComponent).join("/")}`;

/**
 * ["me", "event-types"] and ["me", "teams", teamId, "event-types"]: a team's sit under the teams'
 * key, so invalidating the teams refreshes them too.
 */
export const eventTypeKeys = { list: (owner: EventTypeOwner) => [...ownerSegments(owner), "event-types"] as const };

export const eventTypesQuery = <O extends EventTypeOwner>(owner: O) =>
  queryOptions({ queryKey: eventTypeKeys.list(owner), queryFn: async () => (await fetchJson<{ data: EventTypeOf<O>[] }>(pathOf(owner))).data });

export const createEventType = <O extends EventTypeOwner>(owner: O, input: EventTypeInputOf<O>) =>
  fetchJson<EventTypeOf<O>>(pathOf(owner), { method: "POST", body: input });

export const updateEventType = <O extends EventTypeOwner>(owner: O, id: string, change: EventTypeChangeOf<O>) =>
  fetchJson<EventTypeOf<O>>(pathOf(owner, id), { method: "PATCH", body: change });

/** The hidden event type (it has bookings), or undefined when it was removed. */
export const deleteEventType = <O extends EventTypeOwner>(owner: O, id: string) =>
  fetchJson<EventTypeOf<O> | undefined>(pathOf(owner, id), { method: "DELETE" });

export const explainTime = <O extends EventTypeOwner>(owner: O, id: string, startTime: string) =>
  fetchJson<ExplanationOf<O>>(`${pathOf(owner, id, "explain")}?${new URLSearchParams({ startTime })}`);
