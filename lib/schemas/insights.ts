import { z } from "zod";
import { DateString, PathSegment } from "./common";

// GET /me/insights: how the host's booking pages are doing (decisions §22). Every count is of the
// bookings the caller hosts whose start falls in the range (dates in the host's timezone).

export const INSIGHTS_MAX_DAYS = 366;

export const InsightsQuery = z
  .strictObject({
    from: DateString.meta({ description: "The first day counted, in the host's timezone" }),
    to: DateString.meta({ description: "The last day counted, in the host's timezone (at most 366 days from `from`)" }),
    eventTypeId: PathSegment.optional().meta({ description: "Only this event type's bookings" }),
    teamId: PathSegment.optional().meta({ description: "Only the bookings of this team's event types" }),
  })
  .superRefine((q, ctx) => {
    if (q.from > q.to) ctx.addIssue({ code: "custom", path: ["to"], message: "Must not be before from" });
    else if ((Date.parse(`${q.to}T00:00:00Z`) - Date.parse(`${q.from}T00:00:00Z`)) / 86_400_000 + 1 > INSIGHTS_MAX_DAYS) {
      ctx.addIssue({ code: "custom", path: ["to"], message: `The range may span at most ${INSIGHTS_MAX_DAYS} days` });
    }
  });
export type InsightsQuery = z.infer<typeof InsightsQuery>;

const Count = z.number().int().min(0);

export const Insights = z
  .object({
    from: DateString,
    to: DateString,
    timeZone: z.string().meta({ description: "The host's timezone the days and hours are counted in" }),
    totals: z.object({
      bookings: Count.meta({ description: "Every booking whose start falls in the range, whatever its status" }),
      confirmed: Count,
      pending: Count.meta({ description: "Requests waiting for the host's answer" }),
      cancelled: Count.meta({ description: "Cancelled or declined (by the guest, a host, or the system); a payment hold, waiting or released unpaid, is no booking and counts nowhere" }),
      rescheduled: Count.meta({ description: "Bookings moved at least once" }),
      noShow: Count.meta({ description: "Bookings marked as a no-show (the guest's or a host's)" }),
    }),
    byDay: z
      .array(z.object({ date: DateString, bookings: Count, cancelled: Count, noShow: Count }))
      .meta({ description: "Every date of the range, in order, zeros included" }),
    byEventType: z
      .array(z.object({ eventTypeId: z.string(), title: z.string(), bookings: Count, cancelled: Count, noShow: Count }))
      .meta({ description: "Each event type with bookings in the range, most booked first" }),
    byWeekdayHour: z
      .array(z.object({ weekday: z.number().int().min(0).max(6).meta({ description: "0 = Sunday" }), hour: z.number().int().min(0).max(23), bookings: Count }))
      .meta({ description: "When guests' bookings start, not cancelled, in the host's timezone: only the cells with bookings" }),
    leadTimeHours: z
      .object({ median: z.number().nullable(), p90: z.number().nullable() })
      .meta({ description: "Hours from the booking being made to its start (not cancelled); null without bookings" }),
    byHost: z
      .array(z.object({ userId: z.string(), username: z.string(), fullName: z.string().meta({ description: "The host's name, as guests see it" }), bookings: Count }))
      .meta({ description: "For team event types: each host's bookings (not cancelled), most first" }),
  })
  .meta({ id: "Insights" });
export type Insights = z.infer<typeof Insights>;
