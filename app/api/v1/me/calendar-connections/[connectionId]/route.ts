// PATCH, DELETE /api/v1/me/calendar-connections/{connectionId} – per-calendar flags; disconnect
import { toCalendarConnection } from "@/lib/dto";
import { endpoint, json, route } from "@/lib/http/route";
import { CalendarConnection, ConnectionParams, UpdateConnectionBody } from "@/lib/schemas/calendar";
import { deleteConnection, loadConnectionOrThrow, updateConnectionCalendars } from "@/lib/services/calendars";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/calendar-connections/{connectionId}", {
  GET: route(
    {
      auth: "host",
      summary: "Read one calendar connection",
      tags: ["Calendars"],
      params: ConnectionParams,
      responses: { 200: { description: "The connection", schema: CalendarConnection } },
      errors: [404],
    },
    async ({ db, host, params }) => {
      const found = await loadConnectionOrThrow(db, host, params.connectionId);
      return json(toCalendarConnection(found.connection, found.calendars));
    },
  ),
  PATCH: route(
    {
      auth: "host",
      summary: "Choose which calendars count as busy time and which one receives new bookings (at most one per host)",
      tags: ["Calendars"],
      params: ConnectionParams,
      body: UpdateConnectionBody,
      responses: { 200: { description: "The connection as changed", schema: CalendarConnection } },
      errors: [404],
    },
    async ({ db, host, params, body }) => {
      const saved = await updateConnectionCalendars(db, host, params.connectionId, body);
      return json(toCalendarConnection(saved.connection, saved.calendars));
    },
  ),
  DELETE: route(
    {
      auth: "host",
      summary: "Disconnect: the connection, its busy data and its credentials are removed",
      tags: ["Calendars"],
      params: ConnectionParams,
      responses: { 204: { description: "Disconnected" } },
      errors: [404],
    },
    async ({ db, host, params }) => {
      await deleteConnection(db, host, params.connectionId);
      return json(undefined, { status: 204 });
    },
  ),
});
