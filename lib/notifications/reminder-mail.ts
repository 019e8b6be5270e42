import "server-only";
import { HOST_NO_LINK, isWebAddress, readableLocation } from "@/lib/meeting-location";
import type { SendMailOptions } from "nodemailer";
import type { BookingFacts } from "./booking-facts";
import type { Reader } from "./booking-mail";
import { hostNames } from "./booking-facts";
import { asHtml, asText, PRODUCT_NAME, type Outline } from "./email-layout";
import { mailWordsOf } from "./mail-words";
import { fill } from "@/lib/i18n/fill";
import { asLocale } from "@/lib/i18n/locales";
import { dayOf, rangeOf } from "@/lib/time/in-words";

// The reminder before a booking (decisions §16): short, one per reader. The guest's is in the
// booking's language and zone and carries their links; a host's is in the language and zone of
// the host's profile. No invitation is attached: the one sent with the confirmation stands.

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
  const w = mailWordsOf(locale).mail;
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
  const links: Outline["links"] = isWebAddress(booking.location) ? [[w.join, booking.location.trim()]] : [];
  if (m.guestLinks) links.push([w.seeBooking, m.guestLinks.manageUrl], [w.pickAnother, m.guestLinks.rescheduleUrl], [w.cancelBooking, m.guestLinks.cancelUrl]);
  const brand = { name: m.facts.team?.name ?? hosts };
  return { lang: locale, subject: fill(w.reminderSubject, words), greeting: fill(w.greeting, { name: booking.guestName }), lead: fill(w.reminderLead, words), rows, links, brand };
}

function hostOutline(m: ReminderMailInput): Outline {
  const { booking, title, host, team } = m.facts;
  const locale = asLocale(host.language);
  const h = mailWordsOf(locale).hostMail;
  const zone = host.timezone;
  const start = booking.startTime.getTime();
  const words = { title, guest: booking.guestName, day: dayOf(start, zone, locale) };
  const rows: Outline["rows"] = [
    [h.what, title],
    [h.when, rangeOf(start, booking.endTime.getTime(), zone, undefined, locale)],
    [h.guest, booking.guestEmail ? `${booking.guestName} <${booking.guestEmail}>` : booking.guestName],
  ];
  if (booking.location) rows.push([h.where, readableLocation(booking.location, HOST_NO_LINK)]);
  if (team) rows.push([h.team, team.name]);
  if (m.facts.hosts.length > 1) rows.push([h.hosts, hostNames(m.facts, locale)]);
  const links: Outline["links"] = m.dashboardUrl ? [[h.seeDashboard, m.dashboardUrl]] : [];
  if (isWebAddress(booking.location)) links.unshift([mailWordsOf(locale).mail.join, booking.location.trim()]);
  return {
    lang: locale,
    subject: fill(h.reminderSubject, words),
    greeting: fill(h.greeting, { name: host.fullName }),
    lead: fill(h.reminderLead, words),
    rows,
    links,
    brand: { name: team?.name ?? PRODUCT_NAME },
  };
}

export async function composeReminderMail(m: ReminderMailInput): Promise<SendMailOptions> {
  const o = m.reader === "guest" ? guestOutline(m) : hostOutline(m);
  const { booking, host } = m.facts;
  return {
    from: m.from,
    to: m.reader === "guest" ? { name: booking.guestName, address: booking.guestEmail } : { name: host.fullName, address: host.email },
    ...(m.reader === "host" && booking.guestEmail ? { replyTo: { name: booking.guestName, address: booking.guestEmail } } : {}),
    subject: o.subject,
    text: asText(o),
    html: await asHtml(o),
    messageId: m.messageId,
  };
}
