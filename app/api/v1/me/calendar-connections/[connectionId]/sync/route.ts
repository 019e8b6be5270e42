// POST /api/v1/me/calendar-connections/{connectionId}/sync – read busy times again now
import { toCalendarConnection } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { CalendarConnection, ConnectionParams } from "@/lib/schemas/calendar";
import { getConnectionForHostOrThrow, loadConnectionOrThrow, syncConnection } from "@/lib/services/calendars";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/calendar-connections/{connectionId}/sync", {
  POST: route(
    {
      auth: "host",
      summary: "Sync now: read the calendars and their busy times from the provider; the answer shows the outcome in status",
      tags: ["Calendars"],
      params: ConnectionParams,
      responses: { 200: { description: "The connection after the sync (status error or reauth_required when the provider failed)", schema: CalendarConnection } },
      errors: [404],
    },
    async ({ db, host, params }) => {
      await getConnectionForHostOrThrow(db, host, params.connectionId);
      await syncConnection(db, params.connectionId);
      const found = await loadConnectionOrThrow(db, host, params.connectionId);
      return json(toCalendarConnection(found.connection, found.calendars));
    },
  ),
});
