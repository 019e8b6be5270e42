import "server-only";
import { messagesOf } from "@/lib/i18n/catalogs";
import type { Messages } from "@/lib/i18n/en";
import { frenchSpacing } from "@/lib/i18n/fill";
import type { Locale } from "@/lib/i18n/locales";

// The words of the messages, in one language, with that language's typography applied (French
// spacing before its punctuation). Made once per language.

export type MailWords = Pick<Messages, "mail" | "hostMail" | "page">;

const made = new Map<Locale, MailWords>();

function typeset<T>(node: T, fix: (s: string) => string): T {
  if (typeof node === "string") return fix(node) as T;
  if (node && typeof node === "object") return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, typeset(v, fix)])) as T;
  return node;
}

export function mailWordsOf(locale: Locale): MailWords {
  let words = made.get(locale);
  if (!words) {
    const { mail, hostMail, page } = messagesOf(locale);
    const fix = locale === "fr" ? frenchSpacing : (s: string) => s;
    words = { mail: typeset(mail, fix), hostMail: typeset(hostMail, fix), page };
    made.set(locale, words);
  }
  return words;
}
