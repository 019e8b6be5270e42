import "server-only";
import { HOST_NO_LINK, isWebAddress, readableLocation } from "@/lib/meeting-location";
import type { SendMailOptions } from "nodemailer";
import { hostNames, type BookingFacts } from "./booking-facts";
import { messagesOf } from "@/lib/i18n/catalogs";
import { fill, plural } from "@/lib/i18n/fill";
import { asLocale, INTL_TAG, type Locale } from "@/lib/i18n/locales";
import { formatMoney } from "@/lib/payments/money";
import { readablePhone } from "@/lib/phone";
import { readableAnswer } from "@/lib/question-answers";
import { bookingIcs, icsMethodOf, type IcsOccurrence } from "./booking-ics";
import { dayOf, rangeOf } from "@/lib/time/in-words";
import { zoneName } from "@/lib/time/zones";
import { asHtml, asText, PRODUCT_NAME, type Outline } from "./email-layout";
import { mailWordsOf } from "./mail-words";

export { asHtml, asText, hostNames, type Outline };

// The booking emails (confirmation, cancellation, reschedule; to the guest and to the host; for an
// event type that needs approval also the request, its confirmation and its decline or expiry),
// each as plain text and HTML from one outline, with the invitation attached. Times are in the
// reader's zone (the guest's booking zone, the host's profile zone) and on the clock of that zone's
// country (when.ts). The guest's messages are in the booking's language (lib/i18n), the host's
// in their profile's. Host messages answer to the guest (Reply-To); phone answers read as
// "+1 415 555 0100", not E.164; a checkboxes answer is one option a line.

export type BookingMailEvent = "booking.created" | "booking.cancelled" | "booking.rescheduled" | "booking.confirmed";
/**
 * A request's messages (decisions §16): a new booking that waits for the host's approval
 * (requested), and its cancel when the host declined it or nobody confirmed it before its start.
 */
export type RequestVariant = "requested" | "declined" | "expired";
export type Reader = "guest" | "host";

/**
 * A paid booking's money as the message tells it (decisions §20): paid (a confirmation: what the
 * Checkout took, a series' every session), refunded (a cancel that gives the amount back), or
 * kept (a guest's cancel inside `hours` before the start).
 */
export type MailPayment = { status: "paid" | "refunded"; amount: number; currency: string } | { status: "kept"; amount: number; currency: string; hours: number };

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
  /**
   * The occurrences of a series this message tells of together (decisions §19): every one of a
   * new series, or those cancelled together. One row lists their dates, and the invitation holds
   * one event for each. Absent: the one booking (start and end above).
   */
  occurrences?: IcsOccurrence[];
  /** Stable per event and reader: a message sent twice (at least once) is one message to mail clients. */
  messageId: string;
  stamp: Date;
  payment?: MailPayment;
};

/** The "When" row: the booking's time, or with several occurrences their dates, one a line, under "Dates". */
function whenRow(m: BookingMailInput, zone: string, locale: Locale, words: { when: string; dates: string }): [string, string] {
  if (!m.occurrences || m.occurrences.length < 2) return [words.when, rangeOf(m.start.getTime(), m.end.getTime(), zone, undefined, locale)];
  return [words.dates, m.occurrences.map((o) => rangeOf(o.start.getTime(), o.end.getTime(), zone, undefined, locale)).join("\n")];
}

/** The guest's message, in the language of the booking. */
function guestOutline(m: BookingMailInput): Outline {
  const { booking, title } = m.facts;
  const locale = asLocale(booking.guestLanguage);
  const w = mailWordsOf(locale).mail;
  const zone = booking.guestTimezone;
  const hosts = hostNames(m.facts, locale);
  const words = { title, host: hosts, day: dayOf(m.start.getTime(), zone, locale) };
  const rows: Outline["rows"] = [
    [w.what, title],
    whenRow(m, zone, locale, w),
  ];
  if (m.previous) rows.push([w.was, rangeOf(m.previous.start.getTime(), m.previous.end.getTime(), zone, undefined, locale)]);
  rows.push([w.with, hosts]);
  if (booking.location) rows.push([w.where, readableLocation(booking.location, w)]);
  const links: Outline["links"] = [];
  const more: Outline["links"] = [];
  const greeting = fill(w.greeting, { name: booking.guestName });
  // The card's head names who the guest meets: the team, or the hosts.
  const brand = { name: m.facts.team?.name ?? hosts };
  const after: string[] = [];
  const base = { lang: locale, greeting, rows, links, more, brand, after };
  const pay = m.payment;
  const money = pay && formatMoney(pay.amount, pay.currency, INTL_TAG[locale]);
  if (m.variant === "requested") {
    // Nothing to put in a calendar yet: the guest's invitation comes with the host's confirmation.
    if (m.guestLinks) links.push([w.seeBooking, m.guestLinks.manageUrl], [w.cancelBooking, m.guestLinks.cancelUrl]);
    return { ...base, subject: fill(w.requestedSubject, words), lead: fill(w.requestedLead, words) };
  }
  if (m.event !== "booking.cancelled" && isWebAddress(booking.location)) links.push([w.join, booking.location.trim()]);
  if (m.guestLinks && m.event !== "booking.cancelled") {
    links.push([w.seeBooking, m.guestLinks.manageUrl], [w.pickAnother, m.guestLinks.rescheduleUrl], [w.cancelBooking, m.guestLinks.cancelUrl]);
    more.push([w.addToCalendar, m.guestLinks.icsUrl]);
  }
  if (m.event === "booking.created" || m.event === "booking.confirmed") {
    if (pay?.status === "paid") rows.push([w.paid, money!]);
    return { ...base, subject: fill(w.confirmedSubject, words), lead: fill(w.confirmedLead, words) };
  }
  if (m.event === "booking.rescheduled") return { ...base, subject: fill(w.rescheduledSubject, words), lead: fill(w.rescheduledLead, words) };
  if (booking.cancellationReason) rows.push([w.reason, booking.cancellationReason]);
  if (pay?.status === "refunded") after.push(fill(w.refundOnItsWay, { amount: money! }));
  if (pay?.status === "kept") after.push(plural(locale, w.notRefunded, pay.hours));
  if (m.variant === "declined") return { ...base, subject: fill(w.declinedSubject, words), lead: fill(w.declinedLead, words) };
  const lead = fill(m.variant === "expired" ? w.expiredLead : booking.cancelledBy === "guest" ? w.youCancelledLead : w.hostCancelledLead, words);
  return { ...base, subject: fill(w.cancelledSubject, words), lead };
}

/** The host's message, in the language of their profile. */
function hostOutline(m: BookingMailInput): Outline {
  const { booking, title, host, questions, team, hosts } = m.facts;
  const locale = asLocale(host.language);
  const h = mailWordsOf(locale).hostMail;
  const guest = { name: booking.guestName, email: booking.guestEmail };
  const zone = host.timezone;
  const words = { title, guest: guest.name, host: hostNames(m.facts, locale), day: dayOf(m.start.getTime(), zone, locale) };
  const rows: Outline["rows"] = [
    [h.what, title],
    whenRow(m, zone, locale, h),
  ];
  if (m.previous) rows.push([h.was, rangeOf(m.previous.start.getTime(), m.previous.end.getTime(), zone, undefined, locale)]);
  rows.push([h.guest, guest.email ? `${guest.name} <${guest.email}>` : guest.name]);
  if (booking.location) rows.push([h.where, readableLocation(booking.location, HOST_NO_LINK)]);
  if (team) rows.push([h.team, team.name]);
  if (team || hosts.length > 1) rows.push([hosts.length > 1 ? h.hosts : h.host, words.host]);
  if (m.event === "booking.created" || m.event === "booking.confirmed" || m.reassigned === "to") {
    // The guest's zone as people call it ("Eastern Time (US & Canada)"), never its id.
    rows.push([h.guestZone, zoneName(booking.guestTimezone, m.start, locale)]);
    for (const q of questions) {
      const answer = Object.hasOwn(booking.customAnswers, q.id) ? booking.customAnswers[q.id] : undefined;
      if (answer) rows.push([q.label, readableAnswer(q, answer, readablePhone).join("\n")]);
    }
  }
  // A paid booking: what the guest paid, and on a cancel whether it went back.
  const pay = m.payment;
  const money = pay && formatMoney(pay.amount, pay.currency, INTL_TAG[locale]);
  if (pay && (m.event === "booking.cancelled" ? pay.status !== "paid" : pay.status === "paid")) {
    rows.push([h.payment, pay.status === "kept" ? plural(locale, h.notRefunded, pay.hours, { amount: money! }) : fill(pay.status === "refunded" ? h.refunded : h.paid, { amount: money! })]);
  }
  // Every message about a booking the host still hosts links to it on the dashboard's bookings
  // page, which opens where it is listed; a request's link is where it is answered.
  const links: Outline["links"] = m.dashboardUrl ? [[m.variant === "requested" ? h.confirmOrDecline : h.seeDashboard, m.dashboardUrl]] : [];
  // A meeting to join: not for a request still unanswered, nor for a booking that is off.
  const stillHosts = m.reassigned !== "from" && m.event !== "booking.cancelled" && m.variant !== "requested";
  if (stillHosts && isWebAddress(booking.location)) links.push([mailWordsOf(locale).mail.join, booking.location.trim()]);
  const base = { lang: locale, greeting: fill(h.greeting, { name: host.fullName }), rows, links, brand: { name: team?.name ?? PRODUCT_NAME } };
  const say = (subject: string, lead: string) => ({ ...base, subject: fill(subject, words), lead: fill(lead, words) });
  if (m.reassigned === "from") return { ...say(h.reassignedFromSubject, h.reassignedFromLead), links: [] };
  if (m.reassigned === "to") return say(h.reassignedToSubject, h.reassignedToLead);
  if (m.variant === "requested") return say(h.requestedSubject, h.requestedLead);
  if (m.event === "booking.confirmed") return say(h.confirmedSubject, h.confirmedLead);
  if (m.event === "booking.created") return say(h.createdSubject, h.createdLead);
  if (m.event === "booking.rescheduled") return say(h.rescheduledSubject, h.rescheduledLead);
  if (booking.cancellationReason) rows.push([h.reason, booking.cancellationReason]);
  if (m.variant === "declined") return say(h.declinedSubject, h.declinedLead);
  if (m.variant === "expired") return say(h.expiredSubject, h.expiredLead);
  return say(h.cancelledSubject, booking.cancelledBy === "host" ? h.youCancelledLead : h.guestCancelledLead);
}

function outline(m: BookingMailInput): Outline {
  return m.reader === "guest" ? guestOutline(m) : hostOutline(m);
}

export async function composeBookingMail(m: BookingMailInput): Promise<SendMailOptions> {
  const o = outline(m);
  const { booking, title, host } = m.facts;
  const forGuest = m.reader === "guest";
  // A guest gets an invitation once the booking is confirmed: none with a request, nor with the
  // decline or expiry of one (there is nothing in their calendar to cancel).
  const invitation = !(forGuest && (m.variant !== undefined || m.unconfirmed));
  // A host a booking was taken from has it removed from their calendar.
  const cancelled = m.event === "booking.cancelled" || m.reassigned === "from";
  // The reader's language: the guest's booking language, or the host's profile language.
  const language = forGuest ? asLocale(booking.guestLanguage) : asLocale(host.language);
  const page = messagesOf(language).page;
  const ics = bookingIcs({
    bookingId: booking.id,
    sequence: m.sequence,
    cancelled,
    // "Intro call with Ada Host" in the reader's language.
    summary: fill(page.eventWith, { title, host: forGuest ? hostNames(m.facts, language) : booking.guestName }),
    start: m.start,
    end: m.end,
    location: readableLocation(booking.location, forGuest ? messagesOf(asLocale(booking.guestLanguage)).mail : HOST_NO_LINK),
    // The guest's copy says where to see or change the booking; the host's carries no guest secret.
    description: forGuest && m.guestLinks ? fill(page.calendarDetails, { url: m.guestLinks.manageUrl }) : "",
    language,
    host: { name: host.fullName, email: host.email },
    guest: { name: booking.guestName, email: booking.guestEmail },
    stamp: m.stamp,
    ...(m.occurrences ? { occurrences: m.occurrences } : {}),
  });
  return {
    from: m.from,
    to: forGuest ? { name: booking.guestName, address: booking.guestEmail } : { name: host.fullName, address: host.email },
    // The host answers the guest, not the no-reply sender.
    ...(forGuest || !booking.guestEmail ? {} : { replyTo: { name: booking.guestName, address: booking.guestEmail } }),
    subject: o.subject,
    text: asText(o),
    html: await asHtml(o),
    messageId: m.messageId,
    // Calendar clients read the invitation from a text/calendar part with its METHOD.
    ...(invitation ? { icalEvent: { method: icsMethodOf(cancelled), filename: cancelled ? "cancel.ics" : "invite.ics", content: ics } } : {}),
  };
}
