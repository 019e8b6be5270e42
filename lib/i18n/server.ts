import { cookies, headers } from "next/headers";
import { messagesOf } from "./catalogs";
import type { Messages } from "./en";
import { chooseGuestLanguage, LANG_COOKIE, type Locale, type LocaleSource } from "./locales";

// The language of a guest's page, on the server: what the guest chose (`?lang=`, then the cookie
// the language select sets), else the booking's own language (pages behind a guest's link),
// else the browser's (Accept-Language), else English.

export type GuestLanguage = { locale: Locale; source: LocaleSource; messages: Messages };

export async function guestLanguage(options: { param?: string | string[]; stored?: string | null } = {}): Promise<GuestLanguage> {
  const cookie = (await cookies()).get(LANG_COOKIE)?.value;
  const acceptLanguage = (await headers()).get("accept-language");
  const { locale, source } = chooseGuestLanguage({ ...options, cookie, acceptLanguage });
  return { locale, source, messages: messagesOf(locale) };
}
