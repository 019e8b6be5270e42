import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import type { Team, TeamEmailInvitation, TeamInvitation, TeamInvitationList, TeamList, TeamMember } from "@/lib/schemas/team";
import { ApiError, fetchJson } from "./fetch-json";

// Teams (decisions §15), for the dashboard: the caller's teams, their members and invitations.
// Members read; owners change (the API answers 403 otherwise). A team's event types are
// event-types.ts's, with the team as their owner. Types come from the API's own schemas
// (lib/schemas/team.ts), as types only.

export type TeamMemberDto = z.output<typeof TeamMember>;
export type TeamRole = TeamMemberDto["role"];
export type MemberStatus = TeamMemberDto["status"];
export type TeamDto = z.output<typeof Team>;
export type TeamEmailInvitationDto = z.output<typeof TeamEmailInvitation>;
export type TeamPage = z.output<typeof TeamList>;
/** An invitation waiting for the caller's answer: the team's id, slug and name, the role, who sent it. */
export type TeamInvitationDto = z.output<typeof TeamInvitation>;
export type TeamInvitationPage = z.output<typeof TeamInvitationList>;

// Everything under teamKeys.all: invalidating it refreshes the lists, the invitations, each team
// and the teams' event types (eventTypeKeys.list of a team).
export const teamKeys = {
  all: ["me", "teams"] as const,
  /** A page of the teams the caller belongs to (active), invitations left out. */
  page: (page: number) => ["me", "teams", "page", page] as const,
  invitations: (page: number) => ["me", "teams", "invitations", page] as const,
  team: (teamId: string) => ["me", "teams", "team", teamId] as const,
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

/** The caller's own membership of `t`, if any. */
export const myMembership = (t: TeamDto, myUserId: string) => t.members.find((m) => m.userId === myUserId);
/** Whether the caller may change `t` (owners only). */
export const isOwner = (t: TeamDto, myUserId: string) => {
  const me = myMembership(t, myUserId);
  return me?.role === "owner" && me.status === "active";
};
