import { IANAZone } from "luxon";

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * UTC offsets of one IANA zone, looked up once per UTC day instead of once per instant: a day
 * whose two ends share an offset has no transition inside (zones never change twice in a day), so
 * every instant of it gets that offset without asking the timezone database again. Only the
 * day of a DST change pays for exact lookups.
 */
export class ZoneOffsets {
  private readonly zone: IANAZone;
  /** UTC day number → its one offset, or null for a day with a transition in it. */
  private readonly days = new Map<number, number | null>();

  private static readonly shared = new Map<string, ZoneOffsets>();

  /**
   * One instance per zone name for the process: offsets are facts of the timezone database, so
   * the per-day answers are kept between calls (a memo, not state: same input, same output).
   */
  static of(name: string): ZoneOffsets {
    let zone = ZoneOffsets.shared.get(name);
    if (!zone) {
      zone = new ZoneOffsets(name);
      if (ZoneOffsets.shared.size >= 1000) ZoneOffsets.shared.clear();
      ZoneOffsets.shared.set(name, zone);
    }
    return zone;
  }

  constructor(name: string) {
    this.zone = IANAZone.create(name);
    if (!this.zone.isValid) throw new RangeError(`Unknown timezone: ${name}`);
  }

  /** Offset from UTC in minutes at the instant `ms` (e.g. -240 for 09:00-04:00). */
  offsetAt(ms: number): number {
    const day = Math.floor(ms / DAY);
    let offset = this.days.get(day);
    if (offset === undefined) {
      const first = this.zone.offset(day * DAY);
      offset = first === this.zone.offset(day * DAY + DAY - 1) ? first : null;
      if (this.days.size >= 50_000) this.days.clear();
      this.days.set(day, offset);
    }
    return offset ?? this.zone.offset(ms);
  }

  /** The local calendar day (days since 1970-01-01) of the instant `ms`. */
  dayOf(ms: number): number {
    return Math.floor((ms + this.offsetAt(ms) * MINUTE) / DAY);
  }

  /**
   * The instant of a local wall-clock time given as "minutes since 1970-01-01 00:00 local".
   * A time inside a DST gap does not exist: null (skipped, never shifted). A time that occurs
   * twice (the hour repeated when clocks go back) means its first occurrence.
   */
  instantOf(wallMinutes: number): number | null {
    const wall = wallMinutes * MINUTE;
    // The true offset is the one in force at (wall - offset); try the offsets around it.
    const before = this.offsetAt(wall - 14 * 3_600_000);
    const after = this.offsetAt(wall + 14 * 3_600_000);
    let best: number | null = null;
    for (const offset of before === after ? [before] : [before, after]) {
      const instant = wall - offset * MINUTE;
      if (this.offsetAt(instant) === offset && (best === null || instant < best)) best = instant;
    }
    return best;
  }

  /**
   * Like instantOf, but a time inside a DST gap gives the instant the gap ends (where clocks
   * jump to): the start of a day whose midnight is skipped, or an interval ending in the gap.
   */
  instantAtOrAfter(wallMinutes: number): number {
    const exact = this.instantOf(wallMinutes);
    if (exact !== null) return exact;
    const wall = wallMinutes * MINUTE;
    const before = this.offsetAt(wall - 14 * 3_600_000);
    // Read with the offset after the jump the time lies before it, with the one before, after it.
    let lo = wall - this.offsetAt(wall + 14 * 3_600_000) * MINUTE;
    let hi = wall - before * MINUTE;
    while (hi - lo > MINUTE) {
      const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
      if (this.offsetAt(mid) === before) lo = mid;
      else hi = mid;
    }
    return hi;
  }
}

/** Year, month (1–12) and day of a day number: Howard Hinnant's civil_from_days, no Date object. */
function civilOfDay(day: number): [number, number, number] {
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** YYYY-MM-DD of a day number (days since 1970-01-01). */
export function dateOfDay(day: number): string {
  const [y, m, d] = civilOfDay(day);
  return `${y}-${pad2(m)}-${pad2(d)}`;
}

/** Day number of a YYYY-MM-DD date. */
export function dayOfDate(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOfDay(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/**
 * ISO 8601 local time with a numeric offset, no milliseconds: 2027-03-15T09:00:00-04:00, or with
 * `Z` for offset 0 when `utc` is set. Integer arithmetic only: this runs for every slot listed.
 */
export function formatLocal(ms: number, offsetMinutes: number, utc = false): string {
  const local = ms + offsetMinutes * 60_000;
  const day = Math.floor(local / DAY);
  const seconds = Math.floor((local - day * DAY) / 1000);
  const time = `${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor(seconds / 60) % 60)}:${pad2(seconds % 60)}`;
  if (utc && offsetMinutes === 0) return `${dateOfDay(day)}T${time}Z`;
  const abs = Math.abs(offsetMinutes);
  return `${dateOfDay(day)}T${time}${offsetMinutes < 0 ? "-" : "+"}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}
