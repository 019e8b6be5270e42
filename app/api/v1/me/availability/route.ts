// GET, PUT /api/v1/me/availability – weekly rules, date overrides, notice and window
import { endpoint, json, route } from "@/lib/http/route";
import { Availability, AvailabilityBody } from "@/lib/schemas/availability";
import { getAvailability, replaceAvailability } from "@/lib/services/schedules/availability";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/availability", {
  GET: route(
    {
      auth: "host",
      summary: "The host's availability",
      tags: ["Availability"],
      responses: { 200: { description: "Availability", schema: Availability } },
    },
    async ({ db, host }) => json(await getAvailability(db, host)),
  ),
  PUT: route(
    {
      auth: "host",
      summary: "Replace the host's availability",
      tags: ["Availability"],
      body: AvailabilityBody,
      responses: { 200: { description: "The stored availability", schema: Availability } },
      errors: [400],
    },
    async ({ db, host, body }) => json(await replaceAvailability(db, host, body)),
  ),
});
