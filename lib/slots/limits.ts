import { dateOfDay, weekdayOfDay, type ZoneOffsets } from "./zone";

// Booking limits (decisions §16): at most `perDay` non-cancelled bookings of the event type per
// host on one local day, `perWeek` in one ISO week (Monday to Sunday), both counted in the zone
// the event type's hours are read in. Pure: the bookings' starts are an input.

/** The event type's limits and the starts (epoch ms) of this host's non-cancelled bookings of it. */
export type LimitsInput = { perDay?: number; perWeek?: number; booked: number[] };

/** The local day of the Monday that begins the ISO week of `day`. */
export function weekStartOf(day: number): number {
  return day - ((weekdayOfDay(day) + 6) % 7);
}

export type LimitHit = { period: "day" | "week"; limit: number; count: number; from: string; to: string };

/** Counts per local day and per ISO week, and what they say of a day. */
export class LimitCounter {
  private readonly days = new Map<number, number>();
  private readonly weeks = new Map<number, number>();

  constructor(
    private readonly limits: LimitsInput | undefined,
    zone: ZoneOffsets,
  ) {
    if (!limits || (limits.perDay === undefined && limits.perWeek === undefined)) return;
    for (const start of limits.booked) {
      const day = zone.dayOf(start);
      this.days.set(day, (this.days.get(day) ?? 0) + 1);
      const week = weekStartOf(day);
      this.weeks.set(week, (this.weeks.get(week) ?? 0) + 1);
    }
  }

  /** Why no booking may start on the local `day` any more (the day's limit first), if one is full. */
  fullOn(day: number): LimitHit | undefined {
    const perDay = this.limits?.perDay;
    const perWeek = this.limits?.perWeek;
    const onDay = this.days.get(day) ?? 0;
    if (perDay !== undefined && onDay >= perDay) return { period: "day", limit: perDay, count: onDay, from: dateOfDay(day), to: dateOfDay(day) };
    const week = weekStartOf(day);
    const inWeek = this.weeks.get(week) ?? 0;
    if (perWeek !== undefined && inWeek >= perWeek) return { period: "week", limit: perWeek, count: inWeek, from: dateOfDay(week), to: dateOfDay(week + 6) };
    return undefined;
  }
}
