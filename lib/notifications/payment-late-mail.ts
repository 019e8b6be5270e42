import "server-only";
import type { SendMailOptions } from "nodemailer";
import { fill } from "@/lib/i18n/fill";
import { asLocale, INTL_TAG } from "@/lib/i18n/locales";
import { formatMoney } from "@/lib/payments/money";
import { rangeOf } from "@/lib/time/in-words";
import { hostNames, type BookingFacts } from "./booking-facts";
import { asHtml, asText, type Outline } from "./email-layout";
import { mailWordsOf } from "./mail-words";

// The late payment (decisions §20): the guest paid after the time held for them had been released,
// so nothing was booked and the whole payment went back (payment-events.ts decided the refund).
// The guest hears so in their language, with the time that was held in their zone, how much came
// back and when they see it, and a way to book again.

export type PaymentLateMailInput = {
  /** The payment's first booking (the one the guest booked; a series' first session). */
  facts: BookingFacts;
  /** What the guest paid and got back: the whole Checkout. */
  amount: number;
  currency: string;
  /** The event type's booking page, to book again. */
  bookAgainUrl: string;
  from: string;
  messageId: string;
};

function outline(m: PaymentLateMailInput): Outline {
  const { booking, title } = m.facts;
  const locale = asLocale(booking.guestLanguage);
  const w = mailWordsOf(locale).mail;
  const zone = booking.guestTimezone;
  const host = hostNames(m.facts, locale);
  const amount = formatMoney(m.amount, m.currency, INTL_TAG[locale]);
  // "Tuesday, December 2, 2031, 10:00 – 10:30 AM (Eastern Time)": the zone by its name, never its id.
  const held = rangeOf(booking.startTime.getTime(), booking.endTime.getTime(), zone, undefined, locale);
  return {
    lang: locale,
    subject: fill(w.lateSubject, { title }),
    greeting: fill(w.greeting, { name: booking.guestName }),
    lead: fill(w.lateLead, { amount, title, host }),
    rows: [
      [w.what, title],
      [w.lateHeld, held],
      [w.with, host],
    ],
    links: [[w.bookAgain, m.bookAgainUrl]],
    brand: { name: m.facts.team?.name ?? host },
  };
}

export async function composePaymentLateMail(m: PaymentLateMailInput): Promise<SendMailOptions> {
  const o = outline(m);
  const { booking } = m.facts;
  return {
    from: m.from,
    to: { name: booking.guestName, address: booking.guestEmail },
    subject: o.subject,
    text: asText(o),
    html: await asHtml(o),
    messageId: m.messageId,
  };
}
