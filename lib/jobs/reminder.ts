import "server-only";
import { getConfig } from "@/lib/config";
import { dashboardBookingUrl, guestLinks, siteDomain } from "@/lib/links";
import { sendMail } from "@/lib/notifications/mail-transport";
import { composeReminderMail } from "@/lib/notifications/reminder-mail";
import { REMINDER_CALL, REMINDER_EMAIL } from "@/lib/outbox/kinds";
import { ReminderJob } from "@/lib/outbox/payloads";
import { reminderToSend } from "@/lib/services/bookings/reminders";
import { placeReminderCall } from "@/lib/services/calls/place";
import type { JobHandler } from "./types";

// A booking's reminders at their time (decisions §16; made by the fan-out, lib/services/bookings/
// reminders.ts): the email to one reader, and the reminder agent's call to the guest. Each checks
// the booking first: a reminder for a time the booking no longer has is done without a word.

export function reminderEmail(): JobHandler {
  return {
    kind: REMINDER_EMAIL,
    async run({ db, job, now }) {
      const reminder = ReminderJob.parse(job.payload);
      const found = await reminderToSend(db, reminder, now);
      if (!found) return { status: "done" };
      const { facts, guestToken: token } = found;
      const reader = reminder.reader === "host" ? `host-${reminder.hostId}` : "guest";
      await sendMail(
        await composeReminderMail({
          reader: reminder.reader,
          facts,
          guestLinks: token === undefined ? undefined : guestLinks(token),
          dashboardUrl: reminder.reader === "host" ? dashboardBookingUrl(reminder.bookingId) : undefined,
          from: getConfig().mailFrom,
          messageId: `<${reminder.bookingId}.reminder.${reminder.sequence}.${reminder.minutesBefore}.${reader}@${siteDomain()}>`,
        }),
      );
      return { status: "done" };
    },
  };
}

/** A call is worth placing only shortly before the meeting: a few tries, not a day of them. */
const CALL_ATTEMPTS = 3;

export function reminderCall(): JobHandler {
  return {
    kind: REMINDER_CALL,
    maxAttempts: CALL_ATTEMPTS,
    async run({ db, job, now }) {
      const reminder = ReminderJob.parse(job.payload);
      if (!(await reminderToSend(db, reminder, now))) return { status: "done" };
      await placeReminderCall(db, reminder.bookingId, now);
      return { status: "done" };
    },
  };
}
