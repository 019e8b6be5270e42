import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import type {
  CreateTeamEventTypeBody,
  SchedulingType as SchedulingTypes,
  Team,
  TeamEventType,
  TeamEmailInvitation,
  TeamEventTypeList,
  TeamInvitation,
  TeamInvitationList,
  TeamList,
  TeamMember,
  UpdateTeamEventTypeBody,
} from "@/lib/schemas/team";
import type { SlotDto, SlotRange } from "./public";
import { ApiError, fetchJson } from "./fetch-json";

// Teams (decisions §15), for the dashboard: the caller's teams and their members, invitations,
// and the teams' event types. Members read; owners change (the API answers 403 otherwise).
// Types come from the API's own schemas (lib/schemas/team.ts), as types only.

export type TeamMemberDto = z.output<typeof TeamMember>;
export type TeamRole = TeamMemberDto["role"];
export type MemberStatus = TeamMemberDto["status"];
export type TeamDto = z.output<typeof Team>;
export type TeamEmailInvitationDto = z.output<typeof TeamEmailInvitation>;
export type TeamPage = z.output<typeof TeamList>;
/** An invitation waiting for the caller's answer: the team's id, slug and name, the role, who sent it. */
export type TeamInvitationDto = z.output<typeof TeamInvitation>;
export type TeamInvitationPage = z.output<typeof TeamInvitationList>;
export type SchedulingType = z.output<typeof SchedulingTypes>;
/** A personal event type's fields, the team's id, how bookings go to the hosts, and the hosts. */
export type TeamEventTypeDto = z.output<typeof TeamEventType>;
export type TeamEventTypeInput = z.input<typeof CreateTeamEventTypeBody>;
export type TeamEventTypeChange = z.input<typeof UpdateTeamEventTypeBody>;

// Everything under teamKeys.all: invalidating it refreshes the lists, the invitations and each team.
export const teamKeys = {
  all: ["me", "teams"] as const,
  /** A page of the teams the caller belongs to (active), invitations left out. */
  page: (page: number) => ["me", "teams", "page", page] as const,
  invitations: (page: number) => ["me", "teams", "invitations", page] as const,
  team: (teamId: string) => ["me", "teams", "team", teamId] as const,
  eventTypes: (teamId: string) => ["me", "teams", teamId, "event-types"] as const,
};

/** Teams and invitations a page holds in the dashboard. */
export const TEAMS_PAGE_SIZE = 20;

const team = (teamId: string) => `/me/teams/${encodeURIComponent(teamId)}`;

/** A page of the teams the caller is an active member of, oldest first. */
export const teamsQuery = (page = 1) =>
  queryOptions({
    queryKey: teamKeys.page(page),
    queryFn: () => fetchJson<TeamPage>(`/me/teams?${new URLSearchParams({ status: "active", page: String(page), limit: String(TEAMS_PAGE_SIZE) })}`),
  });

/** A page of the invitations waiting for the caller's answer, oldest first. */
export const invitationsQuery = (page = 1) =>
  queryOptions({
    queryKey: teamKeys.invitations(page),
    queryFn: () => fetchJson<TeamInvitationPage>(`/me/team-invitations?${new URLSearchParams({ page: String(page), limit: String(TEAMS_PAGE_SIZE) })}`),
  });

/** One team the caller is in or invited to (404 otherwise: said at once, not asked again). */
export const teamQuery = (teamId: string) =>
  queryOptions({
    queryKey: teamKeys.team(teamId),
    queryFn: () => fetchJson<TeamDto>(team(teamId)),
    retry: (count, error) => !(error instanceof ApiError && (error.status === 401 || error.status === 404)) && count < 1,
  });

export const teamEventTypesQuery = (teamId: string) =>
  queryOptions({
    queryKey: teamKeys.eventTypes(teamId),
    queryFn: async () => (await fetchJson<z.output<typeof TeamEventTypeList>>(`${team(teamId)}/event-types`)).data,
  });

export const createTeam = (input: { slug: string; name: string }) => fetchJson<TeamDto>("/me/teams", { method: "POST", body: input });
export const updateTeam = (teamId: string, change: { name?: string; slug?: string; bio?: string | null }) => fetchJson<TeamDto>(team(teamId), { method: "PATCH", body: change });
export const deleteTeam = (teamId: string) => fetchJson<undefined>(team(teamId), { method: "DELETE" });

/** An invitation by username answers with the member; one by email with the invitation (the same whoever owns the address). */
export const invite = (teamId: string, input: { username: string; role?: TeamRole } | { email: string; role?: TeamRole; language?: string }) =>
  fetchJson<TeamMemberDto | TeamEmailInvitationDto>(`${team(teamId)}/members`, { method: "POST", body: input });
/** Withdraws an invitation by email (owner). */
export const withdrawEmailInvitation = (teamId: string, invitationId: string) =>
  fetchJson<undefined>(`${team(teamId)}/invitations/${encodeURIComponent(invitationId)}`, { method: "DELETE" });
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
