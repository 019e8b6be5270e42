import "server-only";
import { INTL_TAG, type Locale } from "@/lib/i18n/locales";
import { ZoneOffsets } from "@/lib/slots/zone";
import { hour12InZone } from "./reader-clock";
import { zoneName } from "./zones";

// Times as a reader reads them: in their own zone, on their clock, in their language's words
// ("Monday, March 15, 2027", "Montag, 15. März 2027"), never ISO.
//
// Written for every booking's answer and every email, so built from parts that cost little: the
// wall clock from ZoneOffsets (one timezone lookup per zone and UTC day), English names from
// tables, and one Intl formatter per language, zone and use, made once and kept.

const MINUTE = 60_000;
const DAY_MS = 86_400_000;
const DAY: Intl.DateTimeFormatOptions = { weekday: "long", month: "long", day: "numeric", year: "numeric" };
const DAY_PERIOD: Intl.DateTimeFormatOptions = { hour: "numeric", hourCycle: "h12" };

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: Locale, zone: string, use: "day" | "dayPeriod"): Intl.DateTimeFormat {
  const key = `${locale} ${zone} ${use}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(INTL_TAG[locale], { ...(use === "day" ? DAY : DAY_PERIOD), timeZone: zone });
    if (formatters.size >= 2000) formatters.clear();
    formatters.set(key, found);
  }
  return found;
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** An instant on the reader's wall clock: its local day and time, and how to name them. */
class Moment {
  private readonly wall: Date;
  readonly localDay: number;

  constructor(
    readonly ms: number,
    readonly zone: string,
    readonly locale: Locale,
  ) {
    const local = ms + ZoneOffsets.of(zone).offsetAt(ms) * MINUTE;
    this.wall = new Date(local);
    this.localDay = Math.floor(local / DAY_MS);
  }

  get hour(): number {
    return this.wall.getUTCHours();
  }

  /** "Monday, March 15, 2027"; "lundi 15 mars 2027" in French. */
  day(): string {
    return formatter(this.locale, this.zone, "day").format(this.ms);
  }

  /** "14:30" */
  hhmm(): string {
    return `${pad(this.hour)}:${pad(this.wall.getUTCMinutes())}`;
  }

  /** "2:30" */
  hmm(): string {
    return `${this.hour % 12 || 12}:${pad(this.wall.getUTCMinutes())}`;
  }

  /** "PM"; "p.\u202fm." in Spanish. */
  dayPeriod(): string {
    if (this.locale === "en") return this.hour < 12 ? "AM" : "PM";
    return formatter(this.locale, this.zone, "dayPeriod").formatToParts(this.ms).find((p) => p.type === "dayPeriod")?.value ?? "";
  }

  /** "Monday, March 15, 2027": English's own names, whatever Intl's data says. */
  englishDay(): string {
    const w = this.wall;
    return `${WEEKDAYS[w.getUTCDay()]}, ${MONTHS[w.getUTCMonth()]} ${w.getUTCDate()}, ${w.getUTCFullYear()}`;
  }
}

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

function at(ms: number, zone: string, locale: Locale): Moment {
  return new Moment(ms, zone, locale);
}

/** "Monday, March 15, 2027"; "lundi 15 mars 2027" in French. */
export function dayOf(ms: number, zone: string, locale: Locale = "en"): string {
  return at(ms, zone, locale).day();
}

/**
 * "Monday, March 15, 2027, 9:00 – 9:30 AM (Eastern Time (US & Canada))" on a 12-hour clock,
 * "Montag, 15. März 2027, 14:00 – 14:30 (Mitteleuropäische Zeit)" on a 24-hour one (by default
 * the zone's: see clock.ts): the zone by the name its readers use, in their language where Intl
 * has one. A range that crosses midnight names both days, one on a 12-hour clock that crosses
 * noon both halves.
 */
export function rangeOf(start: number, end: number, zone: string, hour12 = hour12InZone(zone), locale: Locale = "en"): string {
  return `${rangeWords(start, end, zone, hour12, locale)} (${zoneName(zone, new Date(start), locale)})`;
}

/**
 * The range without its zone, on the zone's clock: "Tuesday, December 3, 2024, 10:00 – 10:30 AM",
 * for a subject line whose message names the zone in its body.
 */
export function dayAndTimes(start: number, end: number, zone: string, locale: Locale = "en"): string {
  return rangeWords(start, end, zone, hour12InZone(zone), locale);
}

function rangeWords(start: number, end: number, zone: string, hour12: boolean, locale: Locale): string {
  const s = at(start, zone, locale);
  const e = at(end, zone, locale);
  const sameDay = s.localDay === e.localDay;
  let range: string;
  if (!hour12) range = sameDay ? `${s.day()}, ${s.hhmm()} – ${e.hhmm()}` : `${s.day()}, ${s.hhmm()} – ${e.day()}, ${e.hhmm()}`;
  else if (!sameDay) range = `${s.day()}, ${s.hmm()} ${s.dayPeriod()} – ${e.day()}, ${e.hmm()} ${e.dayPeriod()}`;
  else if (s.dayPeriod() !== e.dayPeriod()) range = `${s.day()}, ${s.hmm()} ${s.dayPeriod()} – ${e.hmm()} ${e.dayPeriod()}`;
  else range = `${s.day()}, ${s.hmm()} – ${e.hmm()} ${e.dayPeriod()}`;
  return range;
}

// The API's own sentences to a guest (confirmationMessage, the cancel and reschedule answers):
// English keeps the 12-hour clock those sentences always had; the other languages write the
// 24-hour clock their readers customarily use.

/** "Monday, March 15, 2027, 9:00 AM – 9:30 AM (Europe/Berlin)" in English; "Montag, 15. März 2027, 09:00 – 09:30 (Europe/Berlin)". */
export function sentenceRange(start: number, end: number, zone: string, locale: Locale): string {
  if (locale !== "en") return `${rangeWords(start, end, zone, false, locale)} (${zone})`;
  const s = at(start, zone, locale);
  const e = at(end, zone, locale);
  return `${s.englishDay()}, ${s.hmm()} ${s.dayPeriod()} – ${e.hmm()} ${e.dayPeriod()} (${zone})`;
}

/** "Monday, March 15, 2027, 9:00 AM" in English; "Montag, 15. März 2027, 09:00" (no zone: the caller names it). */
export function sentenceMoment(ms: number, zone: string, locale: Locale): string {
  const t = at(ms, zone, locale);
  return locale === "en" ? `${t.englishDay()}, ${t.hmm()} ${t.dayPeriod()}` : `${t.day()}, ${t.hhmm()}`;
}
