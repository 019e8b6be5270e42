import "server-only";
import { DateTime } from "luxon";

// What the agents say. Spoken words for a person on the phone: the time in the guest's own
// zone, written as people say it ("Monday, March 15 at 9:00 AM Central European Standard Time"),
// never an ISO string or a zone id.

export type CallSubject = {
  guestName: string;
  guestTimezone: string;
  hostName: string;
  title: string;
  startTime: Date;
  location: string;
};

/** "Monday, March 15, 2027 at 9:00 AM Central European Standard Time", in the guest's zone. */
export function spokenWhen(instant: Date, zone: string): string {
  const local = DateTime.fromJSDate(instant, { zone }).setLocale("en-US");
  return `${local.toFormat("cccc, LLLL d, yyyy")} at ${local.toFormat("h:mm a")} ${local.offsetNameLong ?? local.toFormat("ZZZZ")}`;
}

/** The reminder agent, before the meeting: what, with whom, when (and where, when there is a place). */
export function reminderScript(s: CallSubject): string {
  const where = s.location ? ` The location is: ${s.location}.` : "";
  return (
    `Hello ${s.guestName}, this is an automated reminder from ${s.hostName}'s booking page. ` +
    `Your ${s.title} with ${s.hostName} is on ${spokenWhen(s.startTime, s.guestTimezone)}.${where} ` +
    `If you can no longer make it, please use the cancel link in your confirmation email. Goodbye.`
  );
}

/**
 * The follow-up agent, after a cancellation or a missed meeting: offers to book again and names
 * the booking page, spoken as an address without its scheme ("book.example.com/ada/intro-call").
 */
export function followupScript(s: CallSubject & { cancelled: boolean; bookingPage: string }): string {
  const what = s.cancelled
    ? `Your ${s.title} with ${s.hostName} on ${spokenWhen(s.startTime, s.guestTimezone)} was cancelled.`
    : `We missed you at your ${s.title} with ${s.hostName} on ${spokenWhen(s.startTime, s.guestTimezone)}.`;
  return (
    `Hello ${s.guestName}, this is an automated call from ${s.hostName}'s booking page. ${what} ` +
    `If you would like to book a new time, please visit ${s.hostName}'s booking page at ${s.bookingPage}. Thank you, goodbye.`
  );
}

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Text as XML character data: the five special characters escaped, and characters XML 1.0 forbids (controls) dropped. */
export function escapeXml(text: string): string {
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "").replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

/** The TwiML that says `text` and hangs up. */
export function sayTwiml(text: string): string {
  return `<Response><Say>${escapeXml(text)}</Say></Response>`;
}
