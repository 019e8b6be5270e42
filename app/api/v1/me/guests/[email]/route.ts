// GET, DELETE /api/v1/me/guests/{email} – a guest's bookings with the host and their answers (or
// the same as a download), and erasing the guest's data from them
import { endpoint, json, route } from "@/lib/http/route";
import { GuestData, GuestDataQuery, GuestParams } from "@/lib/schemas/guest";
import { eraseGuest } from "@/lib/services/guests/erase";
import { guestData } from "@/lib/services/guests/lookup";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/guests/{email}", {
  GET: route(
    {
      auth: "host",
      summary: "A guest's bookings with you (personal and team) and their answers; ?download=1 for the same JSON as a file (the guest's data export)",
      tags: ["Guests"],
      params: GuestParams,
      query: GuestDataQuery,
      responses: { 200: { description: "The guest's data (an empty list when you have no booking of theirs)", schema: GuestData } },
    },
    async ({ db, host, params, query }) => {
      const data = await guestData(db, host, params.email);
      const download = query.download ? { "content-disposition": 'attachment; filename="guest-data.json"' } : undefined;
      return json(data, { headers: download });
    },
  ),
  DELETE: route(
    {
      auth: "host",
      summary: "Erase a guest's name, email and answers from every booking of theirs you host; their links stop working, the times stay",
      tags: ["Guests"],
      params: GuestParams,
      responses: { 204: { description: "Erased (also when there was nothing to erase)" } },
    },
    async ({ db, host, params }) => {
      await eraseGuest(db, host, params.email);
      return json(undefined, { status: 204 });
    },
  ),
});
