// GET, PUT, DELETE /api/v1/me/schedules/{scheduleId} – read, replace or remove one schedule
import { endpoint, json, route } from "@/lib/http/route";
import { Schedule, ScheduleParams, UpdateScheduleBody } from "@/lib/schemas/schedule";
import { deleteSchedule, getSchedule, replaceSchedule } from "@/lib/services/schedules/manage";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/schedules/{scheduleId}", {
  GET: route(
    {
      auth: "host",
      summary: "Read one schedule",
      tags: ["Availability"],
      params: ScheduleParams,
      responses: { 200: { description: "The schedule", schema: Schedule } },
      errors: [404],
    },
    async ({ db, host, params }) => json(await getSchedule(db, host, params.scheduleId)),
  ),
  PUT: route(
    {
      auth: "host",
      summary: "Replace a schedule's name, timezone and hours, or make it the default (isDefault: true)",
      tags: ["Availability"],
      params: ScheduleParams,
      body: UpdateScheduleBody,
      responses: { 200: { description: "The stored schedule", schema: Schedule } },
      errors: [400, 404],
    },
    async ({ db, host, params, body }) => json(await replaceSchedule(db, host, params.scheduleId, body)),
  ),
  DELETE: route(
    {
      auth: "host",
      summary: "Remove a schedule",
      tags: ["Availability"],
      params: ScheduleParams,
      responses: { 204: { description: "Removed" } },
      errors: [404, { status: 409, description: "conflict: the default schedule, or one an event type uses (details.eventTypeIds)" }],
    },
    async ({ db, host, params }) => {
      await deleteSchedule(db, host, params.scheduleId);
      return json(undefined, { status: 204 });
    },
  ),
});
