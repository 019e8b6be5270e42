// DELETE /api/v1/me/out-of-office/{id} – remove a period of time off: its days are offered again
import { endpoint, json, route } from "@/lib/http/route";
import { OutOfOfficeParams } from "@/lib/schemas/time-off";
import { deleteOutOfOffice } from "@/lib/services/time-off/out-of-office";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/out-of-office/{id}", {
  DELETE: route(
    {
      auth: "host",
      summary: "Remove a period of time off",
      tags: ["Availability"],
      params: OutOfOfficeParams,
      responses: { 204: { description: "Removed" } },
      errors: [404],
    },
    async ({ db, host, params }) => {
      await deleteOutOfOffice(db, host, params.id);
      return json(undefined, { status: 204 });
    },
  ),
});
