// POST /api/v1/me/calendar-feed – a new secret iCalendar feed URL of the host's bookings
import { z } from "zod";
import { endpoint, json, route } from "@/lib/http/route";
import { rotateCalendarFeed } from "@/lib/services/bookings/calendar-feed";

const FeedUrl = z.object({ url: z.string().meta({ description: "{APP_URL}/feeds/{secret}.ics; the previous URL stops working" }) }).meta({ id: "CalendarFeed" });

export const { GET, POST, PUT, PATCH, DELETE } = endpoint("/me/calendar-feed", {
  POST: route(
    {
      auth: "host",
      summary: "Create or replace the host's calendar feed URL (subscribe to it in any calendar app)",
      tags: ["Calendar feed"],
      responses: { 201: { description: "The new feed URL, shown once", schema: FeedUrl } },
    },
    async ({ db, host }) => json(await rotateCalendarFeed(db, host), { status: 201 }),
  ),
});
