import "server-only";
import { CALENDAR_WRITE } from "@/lib/outbox/kinds";
import { CalendarWriteJob } from "@/lib/outbox/payloads";
import { writeBookingToCalendar } from "@/lib/services/bookings/calendar-write";
import type { JobHandler } from "./types";

// Writes a booking into the host's write-target calendar (decisions §9), with the
// worker's retries: the verb is lib/services/bookings/calendar-write.ts.
export function calendarWrite(): JobHandler {
  return {
    kind: CALENDAR_WRITE,
    run: ({ db, job }) => writeBookingToCalendar(db, CalendarWriteJob.parse(job.payload)),
  };
}
