import "server-only";
import type { SendMailOptions } from "nodemailer";
import { fill } from "@/lib/i18n/fill";
import { asLocale, type Locale } from "@/lib/i18n/locales";
import { asHtml, asText, type Outline } from "./email-layout";
import { mailWordsOf, type MailWords } from "./mail-words";

// Mail about the account itself (not a booking): the welcome at sign-up, the password reset and
// email change links, the notice to an address the account left, and the one to an address
// that already has an account. Drawn by the one email
// layout from an Outline, in the language of the host's profile (`language`; English without).

/** `language`: the host's profile language (a locale; anything else reads as English). */
type Mail = { to: { name: string; address: string }; from: string; messageId: string; language?: string };

type Host = MailWords["hostMail"];

/** An account message: a greeting, a lead, paragraphs, the action as a button, and what follows it. */
async function accountMail(
  m: Mail,
  write: (h: Host) => { subject: string; lead: string; paragraphs?: string[]; links?: Outline["links"]; after?: string[]; greeting?: string },
): Promise<SendMailOptions> {
  const locale = asLocale(m.language);
  const h = mailWordsOf(locale).hostMail;
  const parts = write(h);
  const o: Outline = {
    lang: locale,
    subject: parts.subject,
    greeting: parts.greeting ?? fill(h.greeting, { name: m.to.name }),
    lead: parts.lead,
    paragraphs: parts.paragraphs,
    rows: [],
    links: parts.links ?? [],
    after: parts.after,
  };
  return { from: m.from, to: m.to, subject: o.subject, messageId: m.messageId, text: asText(o), html: await asHtml(o) };
}

export async function composePasswordResetMail(m: Mail & { url: string }): Promise<SendMailOptions> {
  return accountMail(m, (h) => ({
    subject: h.resetSubject,
    lead: h.resetLead,
    paragraphs: [h.resetHow],
    links: [[h.resetButton, m.url]],
    after: [h.resetAfter],
  }));
}

export async function composeEmailChangeMail(m: Mail & { url: string }): Promise<SendMailOptions> {
  return accountMail(m, (h) => ({
    subject: h.changeSubject,
    lead: h.changeLead,
    paragraphs: [h.changeHow],
    links: [[h.changeButton, m.url]],
    after: [h.changeAfter],
  }));
}

/** To the address an account has just left: the change is news only if it was not the owner's. */
export async function composeEmailChangedNotice(m: Mail & { newEmail: string; forgotPasswordUrl: string }): Promise<SendMailOptions> {
  return accountMail(m, (h) => ({
    subject: h.changedSubject,
    lead: fill(h.changedLead, { email: m.newEmail }),
    paragraphs: [h.changedFine, fill(h.changedNotYou, { url: m.forgotPasswordUrl })],
  }));
}

/**
 * To an address that already has an account, when someone asked to move another account to it:
 * nothing changed, and there is no link to follow (the asker is not named).
 */
export async function composeEmailTakenNotice(m: Mail): Promise<SendMailOptions> {
  return accountMail(m, (h) => ({
    subject: h.takenSubject,
    lead: h.takenLead,
    paragraphs: [h.takenYou, h.takenNotYou],
  }));
}

/**
 * At sign-up: the links to share (the host's page and the starter event type's), and the
 * dashboard. The starter link is left out when the host has already removed that event type.
 */
export async function composeWelcomeMail(m: Mail & { pageUrl: string; starter?: { title: string; url: string }; dashboardUrl: string }): Promise<SendMailOptions> {
  return accountMail(m, (h) => ({
    subject: fill(h.welcomeSubject, { name: m.to.name }),
    lead: h.welcomeLead,
    links: [[h.welcomeShare, m.pageUrl], ...(m.starter ? [[fill(h.welcomeStarter, { title: m.starter.title }), m.starter.url] as [string, string]] : []), [h.welcomeDashboard, m.dashboardUrl]],
    after: [h.welcomeAfter],
  }));
}

/**
 * A team invitation sent to an email address, in the language given: to an account with that
 * address, a link to its dashboard's invitations; to anyone else, the single-use sign-up link.
 * The team's name and the inviter's come from other people: plain text here, escaped in the HTML.
 */
export async function composeTeamInvitationMail(
  m: Mail & { locale: Locale; hasAccount: boolean; teamName: string; inviterName: string | null; url: string; days: number },
): Promise<SendMailOptions> {
  const t = mailWordsOf(m.locale).mail;
  const inviter = m.inviterName ?? t.someone;
  return accountMail({ ...m, language: m.locale }, () => ({
    greeting: m.to.name ? fill(t.greeting, { name: m.to.name }) : t.greetingAnonymous,
    subject: fill(t.teamInviteSubject, { inviter, team: m.teamName }),
    lead: fill(t.teamInviteLead, { inviter, team: m.teamName }),
    paragraphs: [fill(m.hasAccount ? t.teamInviteAnswer : t.teamInviteSignUp, { days: m.days })],
    links: [[m.hasAccount ? t.teamInviteOpen : t.teamInviteCreate, m.url]],
    after: [t.teamInviteIgnore],
  }));
}
