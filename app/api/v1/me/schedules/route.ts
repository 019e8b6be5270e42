// GET, POST /api/v1/me/schedules – list the host's schedules and add one
import { endpoint, json, route } from "@/lib/http/route";
import { CreateScheduleBody, Schedule, ScheduleList } from "@/lib/schemas/schedule";
import { createSchedule, listSchedules } from "@/lib/services/schedules/manage";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/schedules", {
  GET: route(
    {
      auth: "host",
      summary: "List the host's schedules, the default first",
      tags: ["Availability"],
      responses: { 200: { description: "Schedules with their hours", schema: ScheduleList } },
    },
    async ({ db, host }) => json({ data: await listSchedules(db, host) }),
  ),
  POST: route(
    {
      auth: "host",
      summary: "Add a schedule: named weekly rules and date overrides read in its own timezone",
      tags: ["Availability"],
      body: CreateScheduleBody,
      responses: { 201: { description: "The new schedule", schema: Schedule } },
      errors: [400, { status: 409, description: "conflict: the host already keeps the most schedules allowed (50)" }],
    },
    async ({ db, host, body }) => json(await createSchedule(db, host, body), { status: 201 }),
  ),
});
