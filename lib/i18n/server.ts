import { cookies, headers } from "next/headers";
import { messagesOf } from "./catalogs";
import type { Messages } from "./en";
import { DEFAULT_LOCALE, isLocale, LANG_COOKIE, localeOfAcceptLanguage, localeOfTag, type Locale, type LocaleSource } from "./locales";

// The language of a guest's page, on the server: what the guest chose (`?lang=`, then the cookie
// the language select sets), else the booking's own language (pages behind a guest's link),
// else the browser's (Accept-Language), else English.

export type GuestLanguage = { locale: Locale; source: LocaleSource; messages: Messages };

export async function guestLanguage(options: { param?: string | string[]; stored?: string | null } = {}): Promise<GuestLanguage> {
  const pick = (locale: Locale, source: LocaleSource): GuestLanguage => ({ locale, source, messages: messagesOf(locale) });
  const param = typeof options.param === "string" ? localeOfTag(options.param) : undefined;
  if (param) return pick(param, "param");
  const cookie = (await cookies()).get(LANG_COOKIE)?.value;
  if (isLocale(cookie)) return pick(cookie, "cookie");
  if (isLocale(options.stored)) return pick(options.stored, "booking");
  const browser = localeOfAcceptLanguage((await headers()).get("accept-language"));
  return browser ? pick(browser, "browser") : pick(DEFAULT_LOCALE, "default");
}
