import { queryOptions } from "@tanstack/react-query";
import { api, dataOf, type AnswerOf, type BodyOf, type Schemas } from "./client";
import { ApiError } from "./fetch-json";

// Teams (decisions §15), for the dashboard: the caller's teams, their members and invitations.
// Members read; owners change (the API answers 403 otherwise). A team's event types are
// event-types.ts's, with the team as their owner. Types are the OpenAPI document's (client.ts).

export type TeamMemberDto = Schemas["TeamMember"];
export type TeamRole = TeamMemberDto["role"];
export type MemberStatus = TeamMemberDto["status"];
export type TeamDto = Schemas["Team"];
export type TeamEmailInvitationDto = Schemas["TeamEmailInvitation"];
export type TeamPage = AnswerOf<"/me/teams", "get">;
/** An invitation waiting for the caller's answer: the team's id, slug and name, the role, who sent it. */
export type TeamInvitationDto = Schemas["TeamInvitation"];
export type TeamInvitationPage = AnswerOf<"/me/team-invitations", "get">;

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

const team = (teamId: string) => ({ params: { path: { teamId } } });
const member = (teamId: string, userId: string) => ({ params: { path: { teamId, userId } } });

/** A page of the teams the caller is an active member of, oldest first. */
export const teamsQuery = (page = 1) =>
  queryOptions({
    queryKey: teamKeys.page(page),
    queryFn: () => dataOf(api.GET("/me/teams", { params: { query: { status: "active", page: String(page), limit: String(TEAMS_PAGE_SIZE) } } })),
  });

/** A page of the invitations waiting for the caller's answer, oldest first. */
export const invitationsQuery = (page = 1) =>
  queryOptions({
    queryKey: teamKeys.invitations(page),
    queryFn: () => dataOf(api.GET("/me/team-invitations", { params: { query: { page: String(page), limit: String(TEAMS_PAGE_SIZE) } } })),
  });

/** One team the caller is in or invited to (404 otherwise: said at once, not asked again). */
export const teamQuery = (teamId: string) =>
  queryOptions({
    queryKey: teamKeys.team(teamId),
    queryFn: () => dataOf(api.GET("/me/teams/{teamId}", team(teamId))),
    retry: (count, error) => !(error instanceof ApiError && (error.status === 401 || error.status === 404)) && count < 1,
  });

export const createTeam = (input: BodyOf<"/me/teams", "post">) => dataOf(api.POST("/me/teams", { body: input }));
export const updateTeam = (teamId: string, change: BodyOf<"/me/teams/{teamId}", "patch">) => dataOf(api.PATCH("/me/teams/{teamId}", { ...team(teamId), body: change }));
export const deleteTeam = (teamId: string) => dataOf(api.DELETE("/me/teams/{teamId}", team(teamId)));

/** An invitation by username answers with the member; one by email with the invitation (the same whoever owns the address). */
export const invite = (teamId: string, input: BodyOf<"/me/teams/{teamId}/members", "post">) =>
  dataOf(api.POST("/me/teams/{teamId}/members", { ...team(teamId), body: input }));
/** Withdraws an invitation by email (owner). */
export const withdrawEmailInvitation = (teamId: string, invitationId: string) =>
  dataOf(api.DELETE("/me/teams/{teamId}/invitations/{invitationId}", { params: { path: { teamId, invitationId } } }));
export const acceptInvitation = (teamId: string) => dataOf(api.POST("/me/teams/{teamId}/accept", team(teamId)));
export const changeRole = (teamId: string, userId: string, role: TeamRole) =>
  dataOf(api.PATCH("/me/teams/{teamId}/members/{userId}", { ...member(teamId, userId), body: { role } }));
/** Removes a member (owner), or leaves (the member themself; declining an invitation is leaving too). */
export const removeMember = (teamId: string, userId: string) => dataOf(api.DELETE("/me/teams/{teamId}/members/{userId}", member(teamId, userId)));

/** The caller's own membership of `t`, if any. */
export const myMembership = (t: TeamDto, myUserId: string) => t.members.find((m) => m.userId === myUserId);
/** Whether the caller may change `t` (owners only). */
export const isOwner = (t: TeamDto, myUserId: string) => {
  const me = myMembership(t, myUserId);
  return me?.role === "owner" && me.status === "active";
};
