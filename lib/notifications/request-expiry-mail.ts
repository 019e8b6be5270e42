import "server-only";
import { HOST_NO_LINK, readableLocation } from "@/lib/meeting-location";
import type { SendMailOptions } from "nodemailer";
import { hostNames, type BookingFacts } from "./booking-facts";
import { asHtml, asText, PRODUCT_NAME, type Outline } from "./email-layout";
import { mailWordsOf } from "./mail-words";
import { fill } from "@/lib/i18n/fill";
import { asLocale, INTL_TAG, type Locale } from "@/lib/i18n/locales";
import { dayAndTimes, rangeOf } from "@/lib/time/in-words";

// The warning to a host that a request is about to expire unanswered ("A request expires in 3
// hours: Jane Doe, Tuesday, December 3, 2024, 10:00 – 10:30 AM"), in the language and zone of the
// host's profile, drawn like the request's own message: the same rows, and the same one button
// to where the request is confirmed or declined. No invitation: nothing is in a calendar yet.

export type RequestExpiryMailInput = {
  /** Written for facts.host. */
  facts: BookingFacts;
  /** The booking on the dashboard, where the request is confirmed or declined. */
  dashboardUrl: string;
  /** The moment the message is written: how long the request has left is counted from it. */
  now: number;
  from: string;
  messageId: string;
};

const HOUR = 3_600_000;
const MINUTE = 60_000;

/**
 * "in 3 hours", "in 45 minutes"; "in 3 Stunden", "dans 3 heures": the time left to the expiry, in
 * whole hours (whole minutes under an hour), in the language's own words (Intl's plurals).
 */
export function timeLeftWords(ms: number, locale: Locale): string {
  const format = new Intl.RelativeTimeFormat(INTL_TAG[locale], { numeric: "always" });
  const minutes = Math.max(1, Math.round(ms / MINUTE));
  return minutes < 60 ? format.format(minutes, "minute") : format.format(Math.round(ms / HOUR), "hour");
}

function outline(m: RequestExpiryMailInput): Outline {
  const { booking, title, host, team } = m.facts;
  const locale = asLocale(host.language);
  const h = mailWordsOf(locale).hostMail;
  const zone = host.timezone;
  const start = booking.startTime.getTime();
  const end = booking.endTime.getTime();
  const words = { guest: booking.guestName, title, in: timeLeftWords(start - m.now, locale), when: dayAndTimes(start, end, zone, locale) };
  const rows: Outline["rows"] = [
    [h.what, title],
    [h.when, rangeOf(start, end, zone, undefined, locale)],
    [h.guest, `${booking.guestName} <${booking.guestEmail}>`],
  ];
  if (booking.location) rows.push([h.where, readableLocation(booking.location, HOST_NO_LINK)]);
  if (team) rows.push([h.team, team.name]);
  if (m.facts.hosts.length > 1) rows.push([h.hosts, hostNames(m.facts, locale)]);
  return {
    lang: locale,
    subject: fill(h.expiringSubject, words),
    greeting: fill(h.greeting, { name: host.fullName }),
    lead: fill(h.expiringLead, words),
    rows,
    links: [[h.confirmOrDecline, m.dashboardUrl]],
    brand: { name: team?.name ?? PRODUCT_NAME },
  };
}

export async function composeRequestExpiryMail(m: RequestExpiryMailInput): Promise<SendMailOptions> {
  const o = outline(m);
  const { booking, host } = m.facts;
  return {
    from: m.from,
    to: { name: host.fullName, address: host.email },
    // The host answers the guest, not the no-reply sender (as with every host message).
    replyTo: { name: booking.guestName, address: booking.guestEmail },
    subject: o.subject,
    text: asText(o),
    html: await asHtml(o),
    messageId: m.messageId,
  };
}
