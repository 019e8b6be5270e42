import "server-only";
import Holidays from "date-holidays";

// Public holidays by country and region (decisions §21), from the `date-holidays` library: its
// rules are kept by its maintainers for some 200 countries, with holiday names in the countries'
// languages and often in others. Only the library's `public` days count (not observances, bank or
// school holidays), each as a whole day of the host's, whatever hour the library starts it at.
// Answers are kept per place, year and language: the slot engine's loader asks on every read.

/** Where a host's public holidays come from: an ISO 3166-1 alpha-2 country and, optionally, one of its regions. */
export type HolidayPlace = { country: string; region: string | null };
/** One public holiday: its local date (YYYY-MM-DD) and its name. */
export type Holiday = { date: string; name: string };

const kept = new Map<string, Holiday[]>();
const MAX_KEPT = 2_000;

function calendarOf(place: HolidayPlace, language: string): Holidays {
  const options = { languages: [language], types: ["public" as const] };
  return place.region ? new Holidays(place.country, place.region, options) : new Holidays(place.country, options);
}

/** The countries the library knows, by code, named in `language` where it can (else English). */
export function holidayCountries(language = "en"): Record<string, string> {
  return new Holidays().getCountries(language);
}

/** A country's regions (states, provinces), by code, named in `language` where it can; empty when it has none. */
export function holidayRegions(country: string, language = "en"): Record<string, string> {
  return new Holidays().getStates(country.toUpperCase(), language) ?? {};
}

/** Whether the library knows this country, and this region of it (null: the whole country). */
export function isHolidayPlace(place: HolidayPlace): boolean {
  if (!(place.country in holidayCountries())) return false;
  return place.region === null || place.region in holidayRegions(place.country);
}

/** The place's public holidays in `year`, named in `language` where the library has the name (else the country's own language). */
export function publicHolidaysOf(place: HolidayPlace, year: number, language = "en"): Holiday[] {
  const key = `${place.country}|${place.region ?? ""}|${year}|${language}`;
  const hit = kept.get(key);
  if (hit) return hit;
  const seen = new Set<string>();
  const holidays: Holiday[] = [];
  for (const h of calendarOf(place, language).getHolidays(year, language)) {
    if (h.type !== "public") continue;
    const date = h.date.slice(0, 10);
    // Two holidays on one date (a substitute day beside its holiday) are one day off, named by the first.
    if (seen.has(date)) continue;
    seen.add(date);
    holidays.push({ date, name: h.name });
  }
  if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(key, holidays);
  return holidays;
}

/** The place's public holidays from `from` to `to` (dates, inclusive), named in `language`. */
export function publicHolidaysBetween(place: HolidayPlace, from: string, to: string, language = "en"): Holiday[] {
  const out: Holiday[] = [];
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) {
    for (const h of publicHolidaysOf(place, year, language)) if (h.date >= from && h.date <= to) out.push(h);
  }
  return out;
}
