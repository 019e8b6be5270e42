// GET, POST /api/v1/me/out-of-office – the host's time off that has not ended, and a new period
import { endpoint, json, route } from "@/lib/http/route";
import { CreateOutOfOfficeBody, OutOfOffice, OutOfOfficeList } from "@/lib/schemas/time-off";
import { createOutOfOffice, listOutOfOffice } from "@/lib/services/time-off/out-of-office";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/out-of-office", {
  GET: route(
    {
      auth: "host",
      summary: "List the host's time off that has not ended (today or later, in the host's timezone), by start",
      tags: ["Availability"],
      responses: { 200: { description: "The periods away", schema: OutOfOfficeList } },
    },
    async ({ db, host }) => json({ data: await listOutOfOffice(db, host) }),
  ),
  POST: route(
    {
      auth: "host",
      summary: "Add time off: whole days, both ends inclusive, in the host's timezone; no slot is offered on them",
      tags: ["Availability"],
      body: CreateOutOfOfficeBody,
      responses: { 201: { description: "The new period", schema: OutOfOffice } },
      errors: [
        { status: 400, description: "A date that is not real, an end before the start or in the past, over 365 days, a note over 500 characters, or no one with that username" },
        { status: 409, description: "conflict: overlaps another period of the host's (details.id names it)" },
      ],
    },
    async ({ db, host, body }) => json(await createOutOfOffice(db, host, body), { status: 201 }),
  ),
});
