import { INTL_TAG, type Locale } from "./locales";

// Catalog values are plain data (strings, and {one, other} for counts), so that the active
// catalog can travel from a server component to the browser as props. These put values into them.

/** A message that depends on a count; the form is chosen by Intl.PluralRules, never by hand. */
export type Plural = { one: string; other: string };

const PLACEHOLDER = /\{(\w+)\}/g;

/** "Hi {name}," with { name: "Ada" } → "Hi Ada,". A placeholder without a value stays as written. */
export function fill(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(PLACEHOLDER, (whole, key: string) => (Object.hasOwn(values, key) ? String(values[key]) : whole));
}

const pluralRules = new Map<Locale, Intl.PluralRules>();

/** The form of `forms` for `count` in `locale` (French and Portuguese say "1" and "0" alike), filled with {count}. */
export function plural(locale: Locale, forms: Plural, count: number, values: Record<string, string | number> = {}): string {
  let rules = pluralRules.get(locale);
  if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(INTL_TAG[locale])));
  const form = rules.select(count) === "one" ? forms.one : forms.other;
  return fill(form, { count: new Intl.NumberFormat(INTL_TAG[locale]).format(count), ...values });
}

const listFormats = new Map<string, Intl.ListFormat>();

/** "Ada Lovelace and Grace Hopper" ("Ada Lovelace und Grace Hopper"): names joined in `locale`'s words. */
export function andList(locale: string, items: string[]): string {
  let format = listFormats.get(locale);
  if (!format) {
    format = new Intl.ListFormat(locale, { type: "conjunction" });
    if (listFormats.size < 100) listFormats.set(locale, format);
  }
  return format.format(items);
}

/**
 * A template whose placeholders are elements (links inside a sentence): the pieces in order,
 * text as strings, each placeholder as its element. Word order stays the translation's.
 */
export function fillParts<T>(template: string, parts: Record<string, T>): (string | T)[] {
  const out: (string | T)[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const key = match[1]!;
    if (!Object.hasOwn(parts, key)) continue;
    if (match.index > last) out.push(template.slice(last, match.index));
    out.push(parts[key]!);
    last = match.index + match[0].length;
  }
  if (last < template.length) out.push(template.slice(last));
  return out;
}

/** The placeholders a template names, for checking that every translation keeps them. */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!).sort();
}

/** "30 minutes", "1 hour 30 minutes", "1 Stunde 30 Minuten": units as Intl names them. */
export function formatDuration(locale: Locale, minutes: number): string {
  const unit = (value: number, name: "hour" | "minute") => new Intl.NumberFormat(INTL_TAG[locale], { style: "unit", unit: name, unitDisplay: "long" }).format(value);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return [h > 0 ? unit(h, "hour") : "", m > 0 || h === 0 ? unit(m, "minute") : ""].filter(Boolean).join(" ");
}

/** "3 seconds", "about 3 minutes" as a person would say how long to wait: the units from Intl, "about" from the catalog. */
export function waitPhrase(locale: Locale, seconds: number, about: string): string {
  const unit = (value: number, name: "second" | "minute" | "hour") => new Intl.NumberFormat(INTL_TAG[locale], { style: "unit", unit: name, unitDisplay: "long" }).format(value);
  if (seconds < 60) return unit(Math.max(1, Math.ceil(seconds)), "second");
  if (seconds < 3600) return fill(about, { duration: unit(Math.ceil(seconds / 60), "minute") });
  return fill(about, { duration: unit(Math.round(seconds / 3600), "hour") });
}

/**
 * French typography: a narrow no-break space (U+202F) before : ; ! ? and inside « », where the
 * catalog writes a plain space, so a line never breaks between a word and its colon. Applied to a
 * template before values go in, so a value (a URL's "https:") is never touched.
 */
export function frenchSpacing(text: string): string {
  return text.replace(/[ \u00a0]([:;!?»])/g, "\u202f$1").replace(/«[ \u00a0]/g, "«\u202f");
}
