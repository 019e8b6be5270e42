// GET /api/v1/me/calendar-connections – the host's connected calendar accounts
import { toCalendarConnection } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { CalendarConnectionList } from "@/lib/schemas/calendar";
import { loadConnections } from "@/lib/services/calendars";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/calendar-connections", {
  GET: route(
    {
      auth: "host",
      summary: "List the host's calendar connections with their calendars, status and last sync",
      tags: ["Calendars"],
      responses: { 200: { description: "Connections, oldest first (credentials are never shown)", schema: CalendarConnectionList } },
    },
    async ({ db, host }) => json({ data: (await loadConnections(db, host.id)).map((c) => toCalendarConnection(c.connection, c.calendars)) }),
  ),
});
