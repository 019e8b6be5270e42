import "server-only";
import { IANAZone } from "luxon";

// Which clock a reader of an email reads: a booking keeps the guest's zone, not their locale, and a
// host's profile has a zone only. So the clock follows the zone's country: where people write times
// on a 12-hour clock (CLDR's preferred hour format "h" for the country's main language), the email
// says "9:00 AM"; everywhere else "09:00". Zones of countries not listed, UTC and Etc/* read 24-hour.

/** Whole areas on a 12-hour clock. */
const TWELVE_HOUR_PREFIXES = ["Australia/", "US/", "Canada/", "America/Indiana/", "America/Kentucky/", "America/North_Dakota/"];

/** Single zones on a 12-hour clock (aliases resolve to these through luxon's canonical name). */
const TWELVE_HOUR_ZONES = new Set([
  // United States
  "America/New_York", "America/Chicago", "America/Denver", "America/Phoenix", "America/Los_Angeles", "America/Anchorage",
  "America/Juneau", "America/Sitka", "America/Yakutat", "America/Nome", "America/Metlakatla", "America/Adak", "America/Boise",
  "America/Detroit", "America/Menominee", "America/Puerto_Rico", "Pacific/Honolulu", "Pacific/Guam",
  // Canada (English-speaking provinces; Quebec writes 24-hour)
  "America/Toronto", "America/Vancouver", "America/Edmonton", "America/Winnipeg", "America/Regina", "America/Halifax",
  "America/St_Johns", "America/Moncton", "America/Whitehorse",
  // elsewhere
  "Pacific/Auckland", "Asia/Kolkata", "Asia/Calcutta", "Asia/Karachi", "Asia/Dhaka", "Asia/Manila", "Asia/Riyadh",
  "Africa/Cairo", "America/Mexico_City", "America/Bogota",
]);

const clocks = new Map<string, boolean>();

/**
 * True when times for a reader in `zone` are best written on a 12-hour clock. Memoised (bounded, as
 * isValidTimeZone): every email asks it several times, and luxon's zone check builds an
 * Intl.DateTimeFormat on each call.
 */
export function hour12InZone(zone: string): boolean {
  let hour12 = clocks.get(zone);
  if (hour12 === undefined) {
    const name = IANAZone.isValidZone(zone) ? IANAZone.create(zone).name : zone;
    hour12 = TWELVE_HOUR_ZONES.has(name) || TWELVE_HOUR_ZONES.has(zone) || TWELVE_HOUR_PREFIXES.some((p) => name.startsWith(p) || zone.startsWith(p));
    if (clocks.size < 2000) clocks.set(zone, hour12);
  }
  return hour12;
}
