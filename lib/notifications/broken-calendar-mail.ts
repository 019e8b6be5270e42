import "server-only";
import type { SendMailOptions } from "nodemailer";
import type { CalendarConnectionRow, UserRow } from "@/db/schema";
import { fill } from "@/lib/i18n/fill";
import { asLocale } from "@/lib/i18n/locales";
import { PROVIDER_BRANDS } from "@/lib/schemas/calendar-providers";
import { sentenceMoment } from "@/lib/time/in-words";
import { zoneName } from "@/lib/time/zones";
import { asHtml, asText, PRODUCT_NAME, type Outline } from "./email-layout";
import { mailWordsOf } from "./mail-words";

// The reconnect email (decisions §21): "Your Work calendar (Apple iCloud) needs reconnecting",
// which connection, since when (in the host's zone and language), what it means (its busy time
// is no longer checked, so guests may book over its events), and one button to the dashboard's
// calendars page. The second and last one says it is the last.

export type BrokenCalendarMailInput = {
  host: UserRow;
  connection: Pick<CalendarConnectionRow, "provider" | "email" | "brokenSince">;
  /** What the connection is called: its primary calendar's name. */
  calendarName: string;
  /** A CalDAV server the host named (not the default's brand); null otherwise. */
  serverHost: string | null;
  /** 1: the first, 2: the second and last. */
  notice: number;
  reconnectUrl: string;
  from: string;
  messageId: string;
};

function outline(m: BrokenCalendarMailInput): Outline {
  const locale = asLocale(m.host.language);
  const h = mailWordsOf(locale).hostMail;
  const zone = m.host.timezone;
  const broke = m.connection.brokenSince!;
  // The zone by its name ("Central European Standard Time"), as every message writes it.
  const since = `${sentenceMoment(broke.getTime(), zone, locale)} (${zoneName(zone, broke, locale)})`;
  const words = {
    calendar: m.calendarName,
    provider: m.serverHost ? `CalDAV ${m.serverHost}` : PROVIDER_BRANDS[m.connection.provider],
    email: m.connection.email,
    since,
  };
  return {
    lang: locale,
    subject: fill(h.brokenSubject, words),
    greeting: fill(h.greeting, { name: m.host.fullName }),
    lead: fill(h.brokenLead, words),
    paragraphs: [h.brokenMeaning],
    rows: [
      [h.brokenAccount, `${words.provider}, ${m.connection.email}`],
      [h.brokenSinceLabel, since],
    ],
    links: [[h.brokenButton, m.reconnectUrl]],
    ...(m.notice >= 2 ? { after: [h.brokenLast] } : {}),
    brand: { name: PRODUCT_NAME },
  };
}

export async function composeBrokenCalendarMail(m: BrokenCalendarMailInput): Promise<SendMailOptions> {
  const o = outline(m);
  return {
    from: m.from,
    to: { name: m.host.fullName, address: m.host.email },
    subject: o.subject,
    text: asText(o),
    html: await asHtml(o),
    messageId: m.messageId,
  };
}
