// DELETE /api/v1/me/teams/{teamId}/invitations/{invitationId} – an owner withdraws an invitation by email
import { endpoint, json, route } from "@/lib/http/route";
import { EmailInvitationParams } from "@/lib/schemas/team";
import { withdrawEmailInvitation } from "@/lib/services/teams";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/teams/{teamId}/invitations/{invitationId}", {
  DELETE: route(
    {
      auth: "host",
      summary: "Withdraw an invitation by email (owners): it is no longer listed, and its sign-up link stops working. An invitation by username is withdrawn with DELETE …/members/{userId}",
      tags: ["Teams"],
      params: EmailInvitationParams,
      responses: { 204: { description: "Withdrawn" } },
      errors: [
        { status: 403, description: "forbidden: only the team's active owners may do this" },
        { status: 404, description: "not_found: no such team (or the caller is not in it), or no such invitation waiting in it" },
      ],
    },
    async ({ db, host, params }) => {
      await withdrawEmailInvitation(db, host, params.teamId, params.invitationId);
      return json(undefined, { status: 204 });
    },
  ),
});
