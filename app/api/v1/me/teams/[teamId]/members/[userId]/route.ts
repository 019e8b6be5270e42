// PATCH, DELETE /api/v1/me/teams/{teamId}/members/{userId} – change a member's role, remove a member or leave
import { toTeamMember } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { MemberParams, TeamMember, UpdateMemberBody } from "@/lib/schemas/team";
import { changeMemberRole, removeMember } from "@/lib/services/teams";

const LAST_OWNER = { status: 409, description: "conflict: the team's last active owner must stay an owner" };

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/teams/{teamId}/members/{userId}", {
  PATCH: route(
    {
      auth: "host",
      summary: "Make a member an owner, or an owner a member (owners)",
      tags: ["Teams"],
      params: MemberParams,
      body: UpdateMemberBody,
      responses: { 200: { description: "The member", schema: TeamMember } },
      errors: [{ status: 403, description: "forbidden: only the team's active owners may do this" }, 404, LAST_OWNER],
    },
    async ({ db, host, params, body }) => json(toTeamMember(await changeMemberRole(db, host, params.teamId, params.userId, body))),
  ),
  DELETE: route(
    {
      auth: "host",
      summary: "Remove a member (owners), or leave the team or decline an invitation (one's own userId); they stop hosting its event types, their bookings stay",
      tags: ["Teams"],
      params: MemberParams,
      responses: { 204: { description: "Removed" } },
      errors: [{ status: 403, description: "forbidden: only an owner may remove someone else" }, 404, LAST_OWNER],
    },
    async ({ db, host, params }) => {
      await removeMember(db, host, params.teamId, params.userId);
      return json(undefined, { status: 204 });
    },
  ),
});
