import "server-only";
import { DateTime } from "luxon";
import type { Db } from "@/db";
import type { UserRow } from "@/db/schema";
import { explainSlot, type Reason } from "@/lib/slots/explain";
import { isoUtc, timeOf } from "@/lib/time/instants";
import { getEventTypeForHostOrThrow } from "@/lib/services/event-types/manage";
import { engineEventType, engineHost, loadHostSchedule } from "./load";

const DAY = 86_400_000;
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

export type ExplainedReason = { code: Reason["code"]; message: string } & Record<string, unknown>;

/** A reason in words, in the host's zone, with its data as the API shows it (instants as ISO UTC). */
function present(reason: Reason, zone: string): ExplainedReason {
  const local = (ms: number) => DateTime.fromMillis(ms, { zone, locale: "en-US" }).toFormat("cccc, LLLL d, yyyy, HH:mm");
  const hours = (list: { startMinute: number; endMinute: number }[]) => list.map((h) => `${timeOf(h.startMinute)}–${timeOf(h.endMinute)}`).join(", ");
  switch (reason.code) {
    case "event_type_inactive":
      return { ...reason, message: "This event type is turned off: guests cannot book it at all." };
    case "closed_by_override":
      return { ...reason, message: `You closed ${reason.date} with a date override.` };
    case "outside_hours":
      return {
        ...reason,
        hours: reason.hours.map((h) => ({ startTime: timeOf(h.startMinute), endTime: timeOf(h.endMinute) })),
        message:
          reason.hours.length === 0
            ? `You have no hours on ${WEEKDAYS[reason.weekday]}s.`
            : `The meeting does not fit inside your hours on ${reason.date} (${hours(reason.hours)}).`,
      };
    case "dst_gap":
      return { ...reason, wallTime: timeOf(reason.wallMinute), message: `${timeOf(reason.wallMinute)} does not exist on ${reason.date}: the clocks skip it for daylight saving time.` };
    case "not_on_grid":
      return {
        code: reason.code,
        stepMinutes: reason.stepMinutes,
        nearest: reason.nearest.map((ms) => isoUtc(new Date(ms))),
        message: `Start times are every ${reason.stepMinutes} minutes from the start of your hours.${
          reason.nearest.length ? ` The nearest open ones: ${reason.nearest.map(local).join(" and ")}.` : ""
        }`,
      };
    case "min_notice":
      return { code: reason.code, minNoticeHours: reason.minNoticeHours, earliest: isoUtc(new Date(reason.earliest)), message: `Too soon: you ask for ${reason.minNoticeHours} hours of notice, so the earliest start is ${local(reason.earliest)}.` };
    case "beyond_window":
      return { ...reason, message: `Too far ahead: guests may book up to ${reason.maxAdvanceDays} days ahead, until ${reason.lastDate}.` };
    case "booking_conflict":
      return {
        code: reason.code,
        bookingId: reason.bookingId,
        start: isoUtc(new Date(reason.start)),
        end: isoUtc(new Date(reason.end)),
        message: `It overlaps another booking (${local(reason.start)} to ${local(reason.end)}, buffers included).`,
      };
    case "calendar_conflict":
      return {
        code: reason.code,
        calendarId: reason.calendarId,
        calendarName: reason.calendarName,
        start: isoUtc(new Date(reason.start)),
        end: isoUtc(new Date(reason.end)),
        message: `Your calendar “${reason.calendarName}” is busy from ${local(reason.start)} to ${local(reason.end)}.`,
      };
  }
}

/** GET /me/event-types/{id}/explain: why `start` is, or is not, a bookable time of the event type. */
export async function explainEventTypeSlot(db: Db, host: UserRow, eventTypeId: string, start: number, now: number) {
  const eventType = await getEventTypeForHostOrThrow(db, host, eventTypeId);
  const schedule = await loadHostSchedule(db, host, { from: start - DAY, to: start + DAY });
  const { bookable, reasons } = explainSlot(
    {
      now,
      host: engineHost(host),
      weeklyRules: schedule.weeklyRules,
      overrides: schedule.overrides,
      eventType: engineEventType(eventType),
      busy: schedule.blocks,
      isActive: eventType.isActive,
    },
    start,
  );
  return { startTime: isoUtc(new Date(start)), bookable, reasons: reasons.map((r) => present(r, host.timezone)) };
}
