import type { CountryCode } from "libphonenumber-js/min";

// libphonenumber-js for the guest's phone field: its small ("min") metadata, loaded only once a
// booking form is open (the page's first load has a budget), and once per page. The server
// checks the number again with the full metadata (lib/phone.ts): the small one knows lengths,
// not every country's number ranges.

export type PhoneLib = typeof import("libphonenumber-js/min");
export type { CountryCode };

let loading: Promise<PhoneLib> | undefined;
export function loadPhoneLib(): Promise<PhoneLib> {
  loading ??= import("libphonenumber-js/min").catch((error: unknown) => {
    loading = undefined; // a failed chunk load may be tried again
    throw error;
  });
  return loading;
}

export type CountryOption = { code: CountryCode; label: string };

const countriesByLocale = new Map<string, CountryOption[]>();
/** Every country the metadata knows, named in the page's language: "Germany +49", "Deutschland +49". */
export function countryOptions(lib: PhoneLib, locale = "en"): CountryOption[] {
  const known = countriesByLocale.get(locale);
  if (known) return known;
  const names = new Intl.DisplayNames([locale], { type: "region", fallback: "code" });
  const countries = lib
    .getCountries()
    .map((code) => ({ code, name: names.of(code) ?? code, calling: lib.getCountryCallingCode(code) }))
    .sort((a, b) => a.name.localeCompare(b.name, locale))
    .map(({ code, name, calling }) => ({ code, label: `${name} +${calling}` }));
  countriesByLocale.set(locale, countries);
  return countries;
}

/** The region of the guest's language ("de-DE", or "de" read as Germany), else the United States. */
export function guessCountry(): string {
  const languages = typeof navigator === "undefined" ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const language of languages) {
    try {
      const region = new Intl.Locale(language).maximize().region;
      // Letters only: "419" (Latin America) is a region but not a country.
      if (region && /^[A-Z]{2}$/.test(region)) return region;
    } catch {
      // not a language tag the browser can read
    }
  }
  return "US";
}

/** A country the metadata knows: the guess, or the United States. */
export const knownCountry = (lib: PhoneLib, country: string): CountryCode => (lib.isSupportedCountry(country) ? country : "US");

/**
 * What the field shows as the guest types: the number grouped as that country writes it. A
 * deletion is kept as typed, or removing a space or bracket would put it straight back.
 */
export function formatAsTyped(lib: PhoneLib, typed: string, previous: string, country: CountryCode): { text: string; country: CountryCode } {
  const typer = new lib.AsYouType(country);
  const formatted = typer.input(typed);
  // "+33 6 …" says its own country: the picker follows, so what is shown agrees.
  const said = typed.trim().startsWith("+") ? typer.getCountry() : undefined;
  return { text: typed.length < previous.length ? typed : formatted, country: said ?? country };
}

/** The number in E.164 when the small metadata takes it as valid for the country (or its own +code). */
export function readPhone(lib: PhoneLib, text: string, country: CountryCode): string | undefined {
  const number = lib.parsePhoneNumberFromString(text, country);
  return number?.isValid() ? number.number : undefined;
}
