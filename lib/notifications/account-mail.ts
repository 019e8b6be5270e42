import "server-only";
import type { SendMailOptions } from "nodemailer";
import { fill } from "@/lib/i18n/fill";
import { messagesOf } from "@/lib/i18n/catalogs";
import type { Locale } from "@/lib/i18n/locales";

// Mail about the account itself (not a booking): the password reset and email change links, and
// the notice to an address the account left. Plain text and a
// small HTML twin; nothing in it comes from another person, but the name is escaped anyway.

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

type Mail = { to: { name: string; address: string }; from: string; messageId: string };

/** An account message: a greeting, paragraphs, an optional link (its own line in the text), and a closing paragraph. */
function accountMail(m: Mail & { subject: string; paragraphs: string[]; link?: { url: string; label: string }; after?: string; greeting?: string }): SendMailOptions {
  const greeting = m.greeting ?? `Hi ${m.to.name},`;
  const text = [greeting, "", ...m.paragraphs, ...(m.link ? [m.link.url] : []), ...(m.after ? ["", m.after] : []), ""];
  const html = [
    greeting,
    ...m.paragraphs,
  ]
    .map((l) => `<p>${escapeHtml(l)}</p>`)
    .concat(m.link ? [`<p><a href="${escapeHtml(m.link.url)}">${escapeHtml(m.link.label)}</a></p>`] : [], m.after ? [`<p>${escapeHtml(m.after)}</p>`] : [])
    .join("");
  return {
    from: m.from,
    to: m.to,
    subject: m.subject,
    messageId: m.messageId,
    text: text.join("\n"),
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111;line-height:1.5">${html}</body></html>`,
  };
}

export function composePasswordResetMail(m: Mail & { url: string }): SendMailOptions {
  return accountMail({
    ...m,
    subject: "Reset your password",
    paragraphs: ["Someone (we hope you) asked to reset the password of your account.", "This link sets a new password. It works once, for one hour:"],
    link: { url: m.url, label: "Set a new password" },
    after: "If you did not ask, ignore this message: your password stays as it is.",
  });
}

export function composeEmailChangeMail(m: Mail & { url: string }): SendMailOptions {
  return accountMail({
    ...m,
    subject: "Confirm your new email",
    paragraphs: ["Your account asked to use this address from now on.", "Confirm it with this link. It works once, for one hour:"],
    link: { url: m.url, label: "Confirm this email" },
    after: "If you did not ask, ignore this message: nothing changes.",
  });
}

/** To the address an account has just left: the change is news only if it was not the owner's. */
export function composeEmailChangedNotice(m: Mail & { newEmail: string; forgotPasswordUrl: string }): SendMailOptions {
  return accountMail({
    ...m,
    subject: "Your account's email was changed",
    paragraphs: [
      `The email of your account was changed to ${m.newEmail}. Messages about your account and bookings now go there.`,
      "If you made this change, there is nothing to do.",
      `If you did not, reset your password now at ${m.forgotPasswordUrl} (with the new address) and reply to this message so we can help.`,
    ],
  });
}

/**
 * A team invitation sent to an email address, in the language given: to an account with that
 * address, a link to its dashboard's invitations; to anyone else, the single-use sign-up link.
 * The team's name and the inviter's come from other people: plain text here, escaped in the HTML.
 */
export function composeTeamInvitationMail(
  m: Mail & { locale: Locale; hasAccount: boolean; teamName: string; inviterName: string | null; url: string; days: number },
): SendMailOptions {
  const t = messagesOf(m.locale).mail;
  const inviter = m.inviterName ?? t.someone;
  return accountMail({
    ...m,
    greeting: m.to.name ? fill(t.greeting, { name: m.to.name }) : t.greetingAnonymous,
    subject: fill(t.teamInviteSubject, { inviter, team: m.teamName }),
    paragraphs: [fill(t.teamInviteLead, { inviter, team: m.teamName }), fill(m.hasAccount ? t.teamInviteAnswer : t.teamInviteSignUp, { days: m.days })],
    link: { url: m.url, label: m.hasAccount ? t.teamInviteOpen : t.teamInviteCreate },
    after: t.teamInviteIgnore,
  });
}
