// GET, PUT /api/v1/me/holidays – whose public holidays are the host's days off, and the ones worked anyway
import { endpoint, json, route } from "@/lib/http/route";
import { Holidays, HolidaysBody } from "@/lib/schemas/time-off";
import { getHolidays, replaceHolidays } from "@/lib/services/time-off/holidays";

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/holidays", {
  GET: route(
    {
      auth: "host",
      summary: "The host's public holidays: the country and region they come from, the dates worked anyway, the next 12 months' holidays",
      tags: ["Availability"],
      responses: { 200: { description: "The holidays", schema: Holidays } },
    },
    async ({ host }) => json(getHolidays(host)),
  ),
  PUT: route(
    {
      auth: "host",
      summary: "Set the country (and region) whose public holidays are days off, and the holidays worked anyway; a null country clears them",
      tags: ["Availability"],
      body: HolidaysBody,
      responses: { 200: { description: "The stored holidays", schema: Holidays } },
      errors: [{ status: 400, description: "A country or region the holidays library does not know, or a workingOn date that is not real" }],
    },
    async ({ db, host, body }) => json(await replaceHolidays(db, host, body)),
  ),
});
