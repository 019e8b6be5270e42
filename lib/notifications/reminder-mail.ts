import "server-only";
import { HOST_NO_LINK, readableLocation } from "@/lib/meeting-location";
import type { SendMailOptions } from "nodemailer";
import type { BookingFacts } from "./booking-facts";
import { asHtml, asText, hostNames, type Outline, type Reader } from "./booking-mail";
import { messagesOf } from "@/lib/i18n/catalogs";
import { fill } from "@/lib/i18n/fill";
import { asLocale } from "@/lib/i18n/locales";
import { dayOf, rangeOf } from "@/lib/time/in-words";

// The reminder before a booking (decisions §16): short, one per reader. The guest's is in the
// booking's language and zone and carries their links; a host's is in English and in the host's
// profile zone. No invitation is attached: the one sent with the confirmation stands.

export type ReminderMailInput = {
  reader: Reader;
  /** Written for facts.host when the reader is a host. */
  facts: BookingFacts;
  guestLinks?: { cancelUrl: string; rescheduleUrl: string; manageUrl: string };
  /** The booking on the dashboard, for a host's reminder. */
  dashboardUrl?: string;
  from: string;
  messageId: string;
};

function guestOutline(m: ReminderMailInput): Outline {
  const { booking, title } = m.facts;
  const locale = asLocale(booking.guestLanguage);
  const w = messagesOf(locale).mail;
  const zone = booking.guestTimezone;
  const start = booking.startTime.getTime();
  const hosts = hostNames(m.facts, locale);
  const words = { title, host: hosts, day: dayOf(start, zone, locale) };
  const rows: Outline["rows"] = [
    [w.what, title],
    [w.when, rangeOf(start, booking.endTime.getTime(), zone, undefined, locale)],
    [w.with, hosts],
  ];
  if (booking.location) rows.push([w.where, readableLocation(booking.location, w)]);
  const links: Outline["links"] = m.guestLinks
    ? [
        [w.seeBooking, m.guestLinks.manageUrl],
        [w.pickAnother, m.guestLinks.rescheduleUrl],
        [w.cancelBooking, m.guestLinks.cancelUrl],
      ]
    : [];
  return { lang: locale, subject: fill(w.reminderSubject, words), greeting: fill(w.greeting, { name: booking.guestName }), lead: fill(w.reminderLead, words), rows, links };
}

function hostOutline(m: ReminderMailInput): Outline {
  const { booking, title, host, team } = m.facts;
  const zone = host.timezone;
  const start = booking.startTime.getTime();
  const rows: Outline["rows"] = [
    ["What", title],
    ["When", rangeOf(start, booking.endTime.getTime(), zone)],
    ["Guest", booking.guestEmail ? `${booking.guestName} <${booking.guestEmail}>` : booking.guestName],
  ];
  if (booking.location) rows.push(["Where", readableLocation(booking.location, HOST_NO_LINK)]);
  if (team) rows.push(["Team", team.name]);
  if (m.facts.hosts.length > 1) rows.push(["Hosts", hostNames(m.facts)]);
  return {
    lang: "en",
    subject: `Reminder: ${title} with ${booking.guestName} on ${dayOf(start, zone)}`,
    greeting: `Hi ${host.fullName},`,
    lead: `A reminder: your booking with ${booking.guestName} is coming up.`,
    rows,
    links: m.dashboardUrl ? [["See it on your dashboard", m.dashboardUrl]] : [],
  };
}

export function composeReminderMail(m: ReminderMailInput): SendMailOptions {
  const o = m.reader === "guest" ? guestOutline(m) : hostOutline(m);
  const { booking, host } = m.facts;
  return {
    from: m.from,
    to: m.reader === "guest" ? { name: booking.guestName, address: booking.guestEmail } : { name: host.fullName, address: host.email },
    ...(m.reader === "host" && booking.guestEmail ? { replyTo: { name: booking.guestName, address: booking.guestEmail } } : {}),
    subject: o.subject,
    text: asText(o),
    html: asHtml(o),
    messageId: m.messageId,
  };
}
