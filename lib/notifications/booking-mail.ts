import "server-only";
import { HOST_NO_LINK, readableLocation } from "@/lib/meeting-location";
import type { SendMailOptions } from "nodemailer";
import type { BookingFacts } from "./booking-facts";
import { messagesOf } from "@/lib/i18n/catalogs";
import { andList, fill } from "@/lib/i18n/fill";
import { asLocale } from "@/lib/i18n/locales";
import { readablePhone } from "@/lib/phone";
import { readableAnswer } from "@/lib/question-answers";
import { bookingIcs, icsMethodOf } from "./booking-ics";
import { dayOf, rangeOf } from "@/lib/time/in-words";

// The booking emails (confirmation, cancellation, reschedule; to the guest and to the host; for an
// event type that needs approval also the request, its confirmation and its decline or expiry),
// each as plain text and HTML from one outline, with the invitation attached. Times are in the
// reader's zone (the guest's booking zone, the host's profile zone) and on the clock of that zone's
// country (when.ts). The guest's messages are in the booking's language (lib/i18n), the host's
// in English. Host messages answer to the guest (Reply-To); phone answers read as
// "+1 415 555 0100", not E.164; a checkboxes answer is one option a line.

export type BookingMailEvent = "booking.created" | "booking.cancelled" | "booking.rescheduled" | "booking.confirmed";
/**
 * A request's messages (decisions §16): a new booking that waits for the host's approval
 * (requested), and its cancel when the host declined it or nobody confirmed it before its start.
 */
export type RequestVariant = "requested" | "declined" | "expired";
export type Reader = "guest" | "host";

export type BookingMailInput = {
  event: BookingMailEvent;
  reader: Reader;
  facts: BookingFacts;
  /** The booking's times as of this event (a later reschedule does not change this message). */
  start: Date;
  end: Date;
  previous?: { start: Date; end: Date };
  /**
   * A host's copy of a round-robin move that changed hosts: "to" the host who now has it, "from"
   * the host who no longer does (their copy cancels the invitation in their calendar).
   */
  reassigned?: "to" | "from";
  variant?: RequestVariant;
  /** The booking is still a request (a guest's move of it): no invitation for the guest yet. */
  unconfirmed?: boolean;
  /** The booking on the dashboard (the host's messages link to it; a request is answered there). */
  dashboardUrl?: string;
  sequence: number;
  /** The guest's own links, when the guest's token is known. */
  guestLinks?: { cancelUrl: string; rescheduleUrl: string; manageUrl: string; icsUrl: string };
  from: string;
  /** Stable per event and reader: a message sent twice (at least once) is one message to mail clients. */
  messageId: string;
  stamp: Date;
};

/** A message's parts, written once and rendered as plain text and as HTML. */
export type Outline = {
  /** The language it is written in (the HTML's lang). */
  lang: string;
  subject: string;
  greeting: string;
  lead: string;
  rows: [label: string, value: string][];
  links: [label: string, url: string][];
};

/** "Ada Lovelace and Grace Hopper": every host of the booking, in the reader's language. */
export function hostNames(facts: BookingFacts, locale: string = "en"): string {
  const names = facts.hosts.length > 0 ? facts.hosts.map((h) => h.fullName) : [facts.host.fullName];
  return andList(locale, names);
}

/** The guest's message, in the language of the booking. */
function guestOutline(m: BookingMailInput): Outline {
  const { booking, title } = m.facts;
  const locale = asLocale(booking.guestLanguage);
  const w = messagesOf(locale).mail;
  const zone = booking.guestTimezone;
  const hosts = hostNames(m.facts, locale);
  const words = { title, host: hosts, day: dayOf(m.start.getTime(), zone, locale) };
  const rows: Outline["rows"] = [
    [w.what, title],
    [w.when, rangeOf(m.start.getTime(), m.end.getTime(), zone, undefined, locale)],
  ];
  if (m.previous) rows.push([w.was, rangeOf(m.previous.start.getTime(), m.previous.end.getTime(), zone, undefined, locale)]);
  rows.push([w.with, hosts]);
  if (booking.location) rows.push([w.where, readableLocation(booking.location, w)]);
  const links: Outline["links"] = [];
  const greeting = fill(w.greeting, { name: booking.guestName });
  if (m.variant === "requested") {
    // Nothing to put in a calendar yet: the guest's invitation comes with the host's confirmation.
    if (m.guestLinks) links.push([w.seeBooking, m.guestLinks.manageUrl], [w.cancelBooking, m.guestLinks.cancelUrl]);
    return { lang: locale, subject: fill(w.requestedSubject, words), greeting, lead: fill(w.requestedLead, words), rows, links };
  }
  if (m.guestLinks && m.event !== "booking.cancelled") {
    links.push(
      [w.seeBooking, m.guestLinks.manageUrl],
      [w.pickAnother, m.guestLinks.rescheduleUrl],
      [w.cancelBooking, m.guestLinks.cancelUrl],
      [w.addToCalendar, m.guestLinks.icsUrl],
    );
  }
  if (m.event === "booking.created" || m.event === "booking.confirmed") return { lang: locale, subject: fill(w.confirmedSubject, words), greeting, lead: fill(w.confirmedLead, words), rows, links };
  if (m.event === "booking.rescheduled") return { lang: locale, subject: fill(w.rescheduledSubject, words), greeting, lead: fill(w.rescheduledLead, words), rows, links };
  if (booking.cancellationReason) rows.push([w.reason, booking.cancellationReason]);
  if (m.variant === "declined") return { lang: locale, subject: fill(w.declinedSubject, words), greeting, lead: fill(w.declinedLead, words), rows, links };
  const lead = fill(m.variant === "expired" ? w.expiredLead : booking.cancelledBy === "guest" ? w.youCancelledLead : w.hostCancelledLead, words);
  return { lang: locale, subject: fill(w.cancelledSubject, words), greeting, lead, rows, links };
}

/** The host's message, in English. */
function hostOutline(m: BookingMailInput): Outline {
  const { booking, title, host, questions, team, hosts } = m.facts;
  const guest = { name: booking.guestName, email: booking.guestEmail };
  const zone = host.timezone;
  const when = rangeOf(m.start.getTime(), m.end.getTime(), zone);
  const day = dayOf(m.start.getTime(), zone);
  const rows: Outline["rows"] = [["What", title], ["When", when]];
  if (m.previous) rows.push(["Was", rangeOf(m.previous.start.getTime(), m.previous.end.getTime(), zone)]);
  rows.push(["Guest", guest.email ? `${guest.name} <${guest.email}>` : guest.name]);
  if (booking.location) rows.push(["Where", readableLocation(booking.location, HOST_NO_LINK)]);
  if (team) rows.push(["Team", team.name]);
  if (team || hosts.length > 1) rows.push([hosts.length > 1 ? "Hosts" : "Host", hostNames(m.facts)]);
  if (m.event === "booking.created" || m.event === "booking.confirmed" || m.reassigned === "to") {
    rows.push(["Guest's timezone", booking.guestTimezone]);
    for (const q of questions) {
      const answer = Object.hasOwn(booking.customAnswers, q.id) ? booking.customAnswers[q.id] : undefined;
      if (answer) rows.push([q.label, readableAnswer(q, answer, readablePhone).join("\n")]);
    }
  }
  const greeting = `Hi ${host.fullName},`;
  // Every message about a booking the host still hosts links to it on the dashboard's bookings
  // page, which opens where it is listed; a request's link is where it is answered.
  const links: Outline["links"] = m.dashboardUrl ? [[m.variant === "requested" ? "Confirm or decline it" : "See it on your dashboard", m.dashboardUrl]] : [];
  if (m.reassigned === "from") {
    const lead = `Your booking with ${guest.name} moved to a time you are not free, so it now goes to ${hostNames(m.facts)}. It is no longer on your schedule.`;
    return { lang: "en", subject: `Reassigned: ${title} with ${guest.name} now goes to ${hostNames(m.facts)}`, greeting, lead, rows, links: [] };
  }
  if (m.reassigned === "to") {
    const lead = `${guest.name} moved their booking of ${title} to a time its host was not free, so it now goes to you.`;
    return { lang: "en", subject: `New booking: ${title} with ${guest.name} on ${day} (reassigned to you)`, greeting, lead, rows, links };
  }
  if (m.variant === "requested") {
    const lead = `${guest.name} asks to book ${title} with you. The time is held until you confirm or decline the request; a request not confirmed by its start is cancelled.`;
    return { lang: "en", subject: `Booking request: ${title} with ${guest.name} on ${day}`, greeting, lead, rows, links };
  }
  if (m.event === "booking.confirmed") {
    const lead = `The booking request of ${guest.name} is confirmed, and ${guest.name} has been told.`;
    return { lang: "en", subject: `Confirmed: ${title} with ${guest.name} on ${day}`, greeting, lead, rows, links };
  }
  if (m.event === "booking.created") {
    return { lang: "en", subject: `New booking: ${title} with ${guest.name} on ${day}`, greeting, lead: `${guest.name} booked ${title} with you.`, rows, links };
  }
  if (m.event === "booking.rescheduled") {
    return { lang: "en", subject: `Rescheduled: ${title} with ${guest.name}, now on ${day}`, greeting, lead: `Your booking with ${guest.name} has moved to a new time.`, rows, links };
  }
  if (booking.cancellationReason) rows.push(["Reason", booking.cancellationReason]);
  if (m.variant === "declined") {
    return { lang: "en", subject: `Declined: ${title} with ${guest.name} on ${day}`, greeting, lead: `The booking request of ${guest.name} was declined, and ${guest.name} has been told.`, rows, links };
  }
  if (m.variant === "expired") {
    const lead = `The booking request of ${guest.name} was not confirmed before its start, so it is cancelled, and ${guest.name} has been told.`;
    return { lang: "en", subject: `Expired request: ${title} with ${guest.name} on ${day}`, greeting, lead, rows, links };
  }
  const lead = booking.cancelledBy === "host" ? `You cancelled your booking with ${guest.name}.` : `${guest.name} cancelled their booking.`;
  return { lang: "en", subject: `Cancelled: ${title} with ${guest.name} on ${day}`, greeting, lead, rows, links };
}

function outline(m: BookingMailInput): Outline {
  return m.reader === "guest" ? guestOutline(m) : hostOutline(m);
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
/** Names, titles and answers come from hosts and guests: never markup. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

export function asText(o: Outline): string {
  const width = Math.max(...o.rows.map(([label]) => label.length)) + 2;
  return [
    o.greeting,
    "",
    o.lead,
    "",
    // A value of several lines (a long answer, checked options) keeps the column.
    ...o.rows.map(([label, value]) => `${`${label}:`.padEnd(width)}${value.split("\n").join(`\n${" ".repeat(width)}`)}`),
    ...(o.links.length ? ["", ...o.links.map(([label, url]) => `${label}: ${url}`)] : []),
    "",
  ].join("\n");
}

export function asHtml(o: Outline): string {
  const rows = o.rows
    .map(([label, value]) => `<tr><th align="left" valign="top" style="padding:4px 16px 4px 0;color:#555;font-weight:600">${escapeHtml(label)}</th><td style="padding:4px 0">${escapeHtml(value).replaceAll("\n", "<br>")}</td></tr>`)
    .join("");
  const links = o.links.map(([label, url]) => `<p><a href="${escapeHtml(url)}">${escapeHtml(label)}</a></p>`).join("");
  return `<!doctype html><html lang="${o.lang}"><body style="font-family:system-ui,sans-serif;color:#111;line-height:1.5"><p>${escapeHtml(o.greeting)}</p><p>${escapeHtml(o.lead)}</p><table cellpadding="0" cellspacing="0">${rows}</table>${links}</body></html>`;
}

export function composeBookingMail(m: BookingMailInput): SendMailOptions {
  const o = outline(m);
  const { booking, title, host } = m.facts;
  const forGuest = m.reader === "guest";
  // A guest gets an invitation once the booking is confirmed: none with a request, nor with the
  // decline or expiry of one (there is nothing in their calendar to cancel).
  const invitation = !(forGuest && (m.variant !== undefined || m.unconfirmed));
  // A host a booking was taken from has it removed from their calendar.
  const cancelled = m.event === "booking.cancelled" || m.reassigned === "from";
  const page = messagesOf(forGuest ? asLocale(booking.guestLanguage) : "en").page;
  const ics = bookingIcs({
    bookingId: booking.id,
    sequence: m.sequence,
    cancelled,
    // "Intro call with Ada Host" in the reader's language.
    summary: fill(page.eventWith, { title, host: forGuest ? hostNames(m.facts, asLocale(booking.guestLanguage)) : booking.guestName }),
    start: m.start,
    end: m.end,
    location: readableLocation(booking.location, forGuest ? messagesOf(asLocale(booking.guestLanguage)).mail : HOST_NO_LINK),
    // The guest's copy says where to see or change the booking; the host's carries no guest secret.
    description: forGuest && m.guestLinks ? fill(page.calendarDetails, { url: m.guestLinks.manageUrl }) : "",
    language: forGuest ? asLocale(booking.guestLanguage) : "en",
    host: { name: host.fullName, email: host.email },
    guest: { name: booking.guestName, email: booking.guestEmail },
    stamp: m.stamp,
  });
  return {
    from: m.from,
    to: forGuest ? { name: booking.guestName, address: booking.guestEmail } : { name: host.fullName, address: host.email },
    // The host answers the guest, not the no-reply sender.
    ...(forGuest || !booking.guestEmail ? {} : { replyTo: { name: booking.guestName, address: booking.guestEmail } }),
    subject: o.subject,
    text: asText(o),
    html: asHtml(o),
    messageId: m.messageId,
    // Calendar clients read the invitation from a text/calendar part with its METHOD.
    ...(invitation ? { icalEvent: { method: icsMethodOf(cancelled), filename: cancelled ? "cancel.ics" : "invite.ics", content: ics } } : {}),
  };
}
