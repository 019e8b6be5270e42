import { IANAZone } from "luxon";

const knownZones = new Map<string, boolean>();

/** Any zone the IANA database knows, aliases included (Asia/Calcutta, UTC). Memoised: it is asked per request. */
export function isValidTimeZone(zone: string): boolean {
  let valid = knownZones.get(zone);
  if (valid === undefined) {
    valid = IANAZone.isValidZone(zone);
    if (knownZones.size < 2000) knownZones.set(zone, valid);
  }
  return valid;
}

/** ISO 8601 UTC with `Z` and no milliseconds: 2027-03-15T13:00:00Z. */
export function isoUtc(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function isoUtcOrNull(date: Date | null): string | null {
  return date ? isoUtc(date) : null;
}

// The years the API accepts in dates and instants: what every zone, PostgreSQL and the engine
// handle alike. Year 0 or 10000 is a typo, never a booking.
export const MIN_YEAR = 1970;
export const MAX_YEAR = 9999;
export const MIN_INSTANT = Date.UTC(MIN_YEAR, 0, 1);
export const MAX_INSTANT = Date.UTC(MAX_YEAR, 11, 31, 23, 59, 59);

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A real calendar date written YYYY-MM-DD (2027-02-30 is not), in the years MIN_YEAR–MAX_YEAR.
 * Plain arithmetic: every slots request checks two dates, and luxon's parser cost ~20 µs each.
 */
export function isValidDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < MIN_YEAR || year > MAX_YEAR || month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is this month's last day (leap years included).
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The instant moved into the years the API accepts (for query bounds derived from an input). */
export function clampInstant(ms: number): number {
  return Math.min(Math.max(ms, MIN_INSTANT), MAX_INSTANT);
}

/** An instant (epoch milliseconds) inside the years the API accepts. */
export function isInstantInRange(ms: number): boolean {
  return Number.isFinite(ms) && ms >= MIN_INSTANT && ms <= MAX_INSTANT;
}

export const TIME_OF_DAY = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/** "HH:mm" (24:00 allowed) to minutes after midnight. */
export function minutesOf(time: string): number {
  const [h, m] = time.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** Minutes after midnight to "HH:mm". */
export function timeOf(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}
