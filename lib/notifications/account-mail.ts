import "server-only";
import type { SendMailOptions } from "nodemailer";

// Mail about the account itself (not a booking): the password reset link. Plain text and a
// small HTML twin; nothing in it comes from another person, but the name is escaped anyway.

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

export function composePasswordResetMail(m: { to: { name: string; address: string }; url: string; from: string; messageId: string }): SendMailOptions {
  const lines = [
    `Hi ${m.to.name},`,
    "Someone (we hope you) asked to reset the password of your account.",
    "This link sets a new password. It works once, for one hour:",
  ];
  const after = "If you did not ask, ignore this message: your password stays as it is.";
  return {
    from: m.from,
    to: m.to,
    subject: "Reset your password",
    messageId: m.messageId,
    text: [lines[0], "", lines[1], lines[2], m.url, "", after, ""].join("\n"),
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111;line-height:1.5">${lines
      .map((l) => `<p>${escapeHtml(l)}</p>`)
      .join("")}<p><a href="${escapeHtml(m.url)}">Set a new password</a></p><p>${escapeHtml(after)}</p></body></html>`,
  };
}

export function composeEmailChangeMail(m: { to: { name: string; address: string }; url: string; from: string; messageId: string }): SendMailOptions {
  const lines = [`Hi ${m.to.name},`, "Your account asked to use this address from now on.", "Confirm it with this link. It works once, for one hour:"];
  const after = "If you did not ask, ignore this message: nothing changes.";
  return {
    from: m.from,
    to: m.to,
    subject: "Confirm your new email",
    messageId: m.messageId,
    text: [lines[0], "", lines[1], lines[2], m.url, "", after, ""].join("\n"),
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111;line-height:1.5">${lines
      .map((l) => `<p>${escapeHtml(l)}</p>`)
      .join("")}<p><a href="${escapeHtml(m.url)}">Confirm this email</a></p><p>${escapeHtml(after)}</p></body></html>`,
  };
}

/** To the address an account has just left: the change is news only if it was not the owner's. */
export function composeEmailChangedNotice(m: { to: { name: string; address: string }; newEmail: string; from: string; messageId: string; appUrl: string }): SendMailOptions {
  const lines = [
    `Hi ${m.to.name},`,
    `The email of your account was changed to ${m.newEmail}. Messages about your account and bookings now go there.`,
    "If you made this change, there is nothing to do.",
    `If you did not, reset your password now at ${m.appUrl}/forgot-password (with the new address) and reply to this message so we can help.`,
  ];
  return {
    from: m.from,
    to: m.to,
    subject: "Your account's email was changed",
    messageId: m.messageId,
    text: [lines[0], "", ...lines.slice(1), ""].join("\n"),
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111;line-height:1.5">${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("")}</body></html>`,
  };
}
