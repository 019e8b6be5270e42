// POST /api/v1/me/calendar-connections/provider_c – connect a CalDAV calendar (Apple iCloud, or any server by serverUrl)
import { toCalendarConnection } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { CalendarConnection, ConnectCalDavBody } from "@/lib/schemas/calendar";
import { connectCalDav } from "@/lib/services/calendars";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/calendar-connections/provider_c", {
  POST: route(
    {
      auth: "host",
      summary:
        "Connect a CalDAV account (Apple iCloud by default, or any CalDAV server by serverUrl) with an app-specific password; checked with the server before anything is stored",
      tags: ["Calendars"],
      body: ConnectCalDavBody,
      responses: { 201: { description: "The connection, with its calendars and first sync", schema: CalendarConnection } },
      errors: [{ status: 400, description: "Invalid body, a server address that is not allowed (serverUrl), or the server refused the credentials (nothing stored)" }, 409, 503],
    },
    async ({ db, host, body }) => {
      const saved = await connectCalDav(db, host, body);
      return json(toCalendarConnection(saved.connection, saved.calendars), { status: 201 });
    },
  ),
});
