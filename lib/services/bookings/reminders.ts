import "server-only";
import type { Db } from "@/db";
import { runStatements } from "@/db/client";
import type { BookingRow, EventTypeRow } from "@/db/schema";
import { getConfig } from "@/lib/config";
import type { BookingFacts } from "@/lib/notifications/booking-facts";
import { hostsBooking } from "@/lib/notifications/booking-facts";
import { dropPendingBookingJobs } from "@/lib/outbox/drop";
import type { NewJob } from "@/lib/outbox/enqueue";
import { REMINDER_CALL, REMINDER_EMAIL, REMINDER_KINDS } from "@/lib/outbox/kinds";
import type { ReminderJob } from "@/lib/outbox/payloads";
import { guestPhoneOf } from "./guest-phone";
import { loadBookingFacts, loadGuestMessageFacts } from "./facts";

// Reminders (decisions §16): each is a job in the outbox, due at start − minutesBefore, made by
// the fan-out of the event that gave the booking its confirmed time (created when confirmed at
// once, confirmed, rescheduled), one per reminder × reader, keyed by booking × SEQUENCE ×
// reminder × reader so a fan-out run twice makes each once. A reminder whose moment has passed
// when the event is processed is not made. A cancel drops the booking's unsent reminders, a
// reschedule those of its older SEQUENCEs; whatever slips past (a job already running) checks
// the booking again when it runs and sends nothing for a time the booking no longer has.

/** The events after which a booking has a (new) confirmed time. booking.confirmed: approval (§16). */
const GIVES_A_TIME: ReadonlySet<string> = new Set(["booking.created", "booking.rescheduled", "booking.confirmed"]);

type BookingEventRef = { event: string; bookingId: string; sequence: number };

// What planning a booking's reminders reads, in one prepared statement: the booking's state, its
// event type's reminders and questions (a phone answer makes a call), and its hosts in the order
// of loadPeopleOf (the booking's own host first). Times as epoch milliseconds (runStatements).
const PLANNING_SQL = `
select b.id, b.status, b.sequence, floor(extract(epoch from b.start_time) * 1000)::float8 as "startMs",
  b.custom_answers as "customAnswers", e.reminders, e.custom_questions as questions,
  (select coalesce(json_agg(u.id order by u.id <> b.host_id, u.full_name, u.id), '[]'::json)
     from booking_hosts bh join users u on u.id = bh.user_id where bh.booking_id = b.id) as "hostIds"
from bookings b join event_types e on e.id = b.event_type_id
where b.id = $1::text`;

type PlanningRow = {
  id: string;
  status: BookingRow["status"];
  sequence: number;
  startMs: number | string;
  customAnswers: BookingRow["customAnswers"];
  reminders: EventTypeRow["reminders"];
  questions: EventTypeRow["customQuestions"];
  hostIds: string[];
};

/**
 * What a booking event does to the booking's reminders: drops the ones it made stale and returns
 * the ones to add (the fan-out adds them with its other jobs, in one transaction).
 */
export async function remindersAfter(db: Db, event: BookingEventRef, now: number): Promise<NewJob[]> {
  const [[booking]] = await runStatements(db)<[PlanningRow[]]>([{ text: PLANNING_SQL, params: [event.bookingId] }]);
  if (!booking) return [];
  if (booking.status === "cancelled") {
    await dropPendingBookingJobs(db, { kinds: REMINDER_KINDS, bookingId: booking.id });
    return [];
  }
  // A pending booking gets its reminders when it is confirmed; an event a newer change has
  // overtaken leaves the planning to that change's own event.
  if (!GIVES_A_TIME.has(event.event) || booking.status !== "confirmed" || booking.sequence !== event.sequence) return [];
  // A booking's first SEQUENCE (0) has no older ones whose reminders could be pending.
  if (booking.sequence > 0) await dropPendingBookingJobs(db, { kinds: REMINDER_KINDS, bookingId: booking.id, belowSequence: booking.sequence });

  const start = Number(booking.startMs);
  const startTime = new Date(start).toISOString();
  const { hostIds } = booking;
  const callable = getConfig().calls !== undefined && guestPhoneOf(booking, booking.questions) !== undefined;
  const jobs: NewJob[] = [];
  for (const { minutesBefore, to } of booking.reminders) {
    const runAfter = new Date(start - minutesBefore * 60_000);
    if (runAfter.getTime() <= now) continue;
    const base = { bookingId: booking.id, sequence: booking.sequence, startTime, minutesBefore };
    const key = `reminder:${booking.id}:${booking.sequence}:${minutesBefore}`;
    if (to !== "host") {
      jobs.push({ kind: REMINDER_EMAIL, runAfter, dedupeKey: `${key}:guest`, payload: { ...base, reader: "guest" } satisfies ReminderJob });
      if (callable) jobs.push({ kind: REMINDER_CALL, runAfter, dedupeKey: `${key}:call`, payload: { ...base, reader: "guest" } satisfies ReminderJob });
    }
    if (to !== "guest") {
      for (const hostId of hostIds) {
        jobs.push({ kind: REMINDER_EMAIL, runAfter, dedupeKey: `${key}:host:${hostId}`, payload: { ...base, reader: "host", hostId } satisfies ReminderJob });
      }
    }
  }
  return jobs;
}

/**
 * The booking's facts if the reminder is still to go out, else undefined: the booking is still
 * confirmed, still starts when the reminder was made for, has not started yet, and the reader is
 * still on it (a host a reassignment took it from; a guest whose data was erased). A guest's
 * reminder gets the guest's token with them (their links), in the same statement.
 */
export async function reminderToSend(db: Db, job: ReminderJob, now: number): Promise<{ facts: BookingFacts; guestToken: string | undefined } | undefined> {
  const found = job.reader === "guest" ? await loadGuestMessageFacts(db, job.bookingId) : await loadHostFacts(db, job.bookingId, job.hostId);
  if (!found) return undefined;
  const { booking } = found.facts;
  if (booking.status !== "confirmed" || booking.startTime.getTime() !== Date.parse(job.startTime) || booking.startTime.getTime() <= now) return undefined;
  if (job.reader === "host" ? !job.hostId || !hostsBooking(found.facts, job.hostId) : booking.guestEmail === "") return undefined;
  return found;
}

async function loadHostFacts(db: Db, bookingId: string, hostId: string | undefined) {
  const facts = await loadBookingFacts(db, bookingId, hostId);
  return facts && { facts, guestToken: undefined };
}
