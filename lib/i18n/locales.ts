// The languages the guest's side speaks, and how one is chosen from what a browser or a request
// says. No catalog here: this module is safe for the browser bundle (a few hundred bytes).

export const LOCALES = ["en", "de", "fr", "es", "pt"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

/** The query parameter and the cookie that carry a guest's explicit choice. */
export const LANG_PARAM = "lang";
export const LANG_COOKIE = "booking_lang";

/**
 * The tag Intl formats with: the region decides the order of a date ("March 15" or "15 March")
 * and the words of Portuguese (the catalog is Brazilian Portuguese), not the reader's clock.
 */
export const INTL_TAG: Record<Locale, string> = { en: "en-US", de: "de-DE", fr: "fr-FR", es: "es-ES", pt: "pt-BR" };

/** Each language by its own name, as a guest who reads only that language looks for it. */
export const LANGUAGE_NAMES: Record<Locale, string> = { en: "English", de: "Deutsch", fr: "Français", es: "Español", pt: "Português" };

/** Where a page's language came from; the browser's own list is consulted only after "default". */
export type LocaleSource = "param" | "cookie" | "booking" | "browser" | "default";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** A stored language as one this code knows (a value written by a newer version reads as English). */
export function asLocale(value: string | null | undefined): Locale {
  return isLocale(value) ? value : DEFAULT_LOCALE;
}

/** The supported language of one BCP 47 tag ("de-AT" → "de"), or undefined ("it", "*", not a tag). */
export function localeOfTag(tag: string | undefined | null): Locale | undefined {
  if (!tag) return undefined;
  try {
    const language = new Intl.Locale(tag.trim()).language.toLowerCase();
    return isLocale(language) ? language : undefined;
  } catch {
    return undefined;
  }
}

/** The first supported language of a list in the browser's order (navigator.languages). */
export function firstSupported(tags: readonly string[]): Locale | undefined {
  for (const tag of tags) {
    const locale = localeOfTag(tag);
    if (locale) return locale;
  }
  return undefined;
}

/**
 * The best supported language of an Accept-Language header (RFC 9110 §12.5.4): by quality,
 * ties in the header's order; q=0 means "not this one". Undefined when none is supported.
 */
export function localeOfAcceptLanguage(header: string | null | undefined): Locale | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(",")
    .slice(0, 30) // a header is a few entries; a hostile one is not read to its end
    .map((part, index) => {
      const [tag = "", ...params] = part.split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const quality = q === undefined ? 1 : Number(q.slice(2));
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return firstSupported(ranked.map((entry) => entry.tag));
}

/** The value of one cookie in a Cookie header. */
export function cookieValue(header: string | null | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * A request's language when the guest has not named one: their remembered choice on this site
 * (the cookie the page's language select sets), else the browser's languages, else English.
 */
export function localeOfRequest(headers: Headers): Locale {
  const chosen = cookieValue(headers.get("cookie"), LANG_COOKIE);
  return (isLocale(chosen) ? chosen : undefined) ?? localeOfAcceptLanguage(headers.get("accept-language")) ?? DEFAULT_LOCALE;
}

/** What a guest page's language is chosen from: the request's `?lang=`, its cookie and Accept-Language, and a booking's own language. */
export type LanguageSignals = { param?: string | string[]; cookie?: string; stored?: string | null; acceptLanguage?: string | null };

/**
 * The language of a guest's page from what the request carries: the one rule, for the page's
 * render and for the booking page's cache key (lib/http/page-cache.ts), which must agree.
 */
export function chooseGuestLanguage({ param, cookie, stored, acceptLanguage }: LanguageSignals): { locale: Locale; source: LocaleSource } {
  const named = typeof param === "string" ? localeOfTag(param) : undefined;
  if (named) return { locale: named, source: "param" };
  if (isLocale(cookie)) return { locale: cookie, source: "cookie" };
  if (isLocale(stored)) return { locale: stored, source: "booking" };
  const browser = localeOfAcceptLanguage(acceptLanguage);
  return browser ? { locale: browser, source: "browser" } : { locale: DEFAULT_LOCALE, source: "default" };
}

/** The browser's first language (Accept-Language's first tag) as a locale, for a clock and a first weekday; undefined when it names none. */
export function firstLocaleOfAcceptLanguage(header: string | null | undefined): string | undefined {
  const tag = header?.split(",")[0]?.split(";")[0]?.trim();
  try {
    return tag && tag !== "*" ? new Intl.Locale(tag).toString() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The language a public holiday is named in for a reader (decisions §21): the browser's first
 * language (any the holiday library may have, not only the five of these pages), else `fallback`'s own.
 */
export function holidayLanguageOf(headers: Headers, fallback: { language: string }): string {
  const tag = firstLocaleOfAcceptLanguage(headers.get("accept-language"));
  return tag ? new Intl.Locale(tag).language : fallback.language;
}
