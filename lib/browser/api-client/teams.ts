import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import type { CreateTeamEventTypeBody, SchedulingType as SchedulingTypes, Team, TeamEventType, TeamEventTypeList, TeamList, TeamMember, UpdateTeamEventTypeBody } from "@/lib/schemas/team";
import type { SlotDto, SlotRange } from "./public";
import { fetchJson } from "./fetch-json";

// Teams (decisions §15), for the dashboard: the caller's teams and their members, invitations,
// and the teams' event types. Members read; owners change (the API answers 403 otherwise).
// Types come from the API's own schemas (lib/schemas/team.ts), as types only.

export type TeamMemberDto = z.output<typeof TeamMember>;
export type TeamRole = TeamMemberDto["role"];
export type MemberStatus = TeamMemberDto["status"];
export type TeamDto = z.output<typeof Team>;
export type SchedulingType = z.output<typeof SchedulingTypes>;
/** A personal event type's fields, the team's id, how bookings go to the hosts, and the hosts. */
export type TeamEventTypeDto = z.output<typeof TeamEventType>;
export type TeamEventTypeInput = z.input<typeof CreateTeamEventTypeBody>;
export type TeamEventTypeChange = z.input<typeof UpdateTeamEventTypeBody>;

export const teamKeys = {
  all: ["me", "teams"] as const,
  eventTypes: (teamId: string) => ["me", "teams", teamId, "event-types"] as const,
};

const team = (teamId: string) => `/me/teams/${encodeURIComponent(teamId)}`;

/** Every team the caller is an active or invited member of. */
export const teamsQuery = () => queryOptions({ queryKey: teamKeys.all, queryFn: async () => (await fetchJson<z.output<typeof TeamList>>("/me/teams")).data });

export const teamEventTypesQuery = (teamId: string) =>
  queryOptions({
    queryKey: teamKeys.eventTypes(teamId),
    queryFn: async () => (await fetchJson<z.output<typeof TeamEventTypeList>>(`${team(teamId)}/event-types`)).data,
  });

export const createTeam = (input: { slug: string; name: string }) => fetchJson<TeamDto>("/me/teams", { method: "POST", body: input });
export const updateTeam = (teamId: string, change: { name?: string; slug?: string }) => fetchJson<TeamDto>(team(teamId), { method: "PATCH", body: change });
export const deleteTeam = (teamId: string) => fetchJson<undefined>(team(teamId), { method: "DELETE" });

export const inviteMember = (teamId: string, input: { username: string; role?: TeamRole }) =>
  fetchJson<TeamMemberDto>(`${team(teamId)}/members`, { method: "POST", body: input });
export const acceptInvitation = (teamId: string) => fetchJson<TeamDto>(`${team(teamId)}/accept`, { method: "POST" });
export const changeRole = (teamId: string, userId: string, role: TeamRole) =>
  fetchJson<TeamMemberDto>(`${team(teamId)}/members/${encodeURIComponent(userId)}`, { method: "PATCH", body: { role } });
/** Removes a member (owner), or leaves (the member themself; declining an invitation is leaving too). */
export const removeMember = (teamId: string, userId: string) => fetchJson<undefined>(`${team(teamId)}/members/${encodeURIComponent(userId)}`, { method: "DELETE" });

export const createTeamEventType = (teamId: string, input: TeamEventTypeInput) =>
  fetchJson<TeamEventTypeDto>(`${team(teamId)}/event-types`, { method: "POST", body: input });
export const updateTeamEventType = (teamId: string, id: string, change: TeamEventTypeChange) =>
  fetchJson<TeamEventTypeDto>(`${team(teamId)}/event-types/${encodeURIComponent(id)}`, { method: "PATCH", body: change });
/** The hidden event type (it has bookings), or undefined when it was removed. */
export const deleteTeamEventType = (teamId: string, id: string) =>
  fetchJson<TeamEventTypeDto | undefined>(`${team(teamId)}/event-types/${encodeURIComponent(id)}`, { method: "DELETE" });

/** A team event type's open times (what its guests see), for moving a team booking from the dashboard. */
export const teamSlotsQuery = (teamSlug: string, slug: string, range: SlotRange) =>
  queryOptions({
    queryKey: ["slots", "team", teamSlug, slug, range.from, range.to, range.timezone] as const,
    queryFn: async ({ signal }) =>
      (await fetchJson<{ slots: SlotDto[] }>(`/public/teams/${encodeURIComponent(teamSlug)}/${encodeURIComponent(slug)}/slots?${new URLSearchParams(range)}`, { signal })).slots,
  });

/** The caller's own membership of `t`, if any. */
export const myMembership = (t: TeamDto, myUserId: string) => t.members.find((m) => m.userId === myUserId);
/** Whether the caller may change `t` (owners only). */
export const isOwner = (t: TeamDto, myUserId: string) => {
  const me = myMembership(t, myUserId);
  return me?.role === "owner" && me.status === "active";
};
