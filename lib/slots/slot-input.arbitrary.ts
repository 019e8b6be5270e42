import fc from "fast-check";
import type { DateOverride, LocalInterval, SlotInput, TimeOff, WeeklyRule } from "./index";
import { timeOffOf } from "./time-off";

// Random engine inputs for the property tests (slots.property.test.ts, team.property.test.ts):
// hosts in zones with DST changes, half-hour and 45-minute offsets, guests anywhere, dates often
// in the days around a host's own clock change.

export const ZONES = [
  "America/New_York", "Europe/Berlin", "Asia/Kolkata", "Australia/Lord_Howe",
  "Pacific/Chatham", "America/St_Johns", "UTC", "Asia/Kathmandu",
];
const MINUTE = 60_000;
const DAY = 86_400_000;

// Each zone's DST days, so that gaps and repeated hours of the host's own zone are common.
const US = ["2026-03-08", "2026-11-01", "2027-03-14", "2027-11-07", "2028-03-12", "2028-11-05"];
export const TRANSITIONS: [string, string[]][] = [
  ["America/New_York", US],
  ["America/St_Johns", US],
  ["Europe/Berlin", ["2026-03-29", "2026-10-25", "2027-03-28", "2027-10-31", "2028-03-26", "2028-10-29"]],
  ["Australia/Lord_Howe", ["2026-04-05", "2026-10-04", "2027-04-04", "2027-10-03", "2028-04-02", "2028-10-01"]],
  ["Pacific/Chatham", ["2026-04-05", "2026-09-27", "2027-04-04", "2027-09-26", "2028-04-02", "2028-09-24"]],
];
const FIRST_DAY = Date.parse("2026-01-01T00:00:00Z") / DAY;
const LAST_DAY = Date.parse("2028-12-01T00:00:00Z") / DAY;

export const isoDate = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);
export const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY;

/** Non-overlapping, non-touching intervals of one day: sorted unique cut points taken in pairs. */
const dayHours = fc
  .uniqueArray(
    fc.oneof(
      fc.integer({ min: 0, max: 1440 }),
      fc.integer({ min: 0, max: 48 }).map((x) => x * 30),
      fc.integer({ min: 0, max: 20 }).map((x) => x * 15), // the small hours, where DST changes
    ),
    { maxLength: 6 },
  )
  .map((cuts): LocalInterval[] => {
    const s = [...cuts].sort((a, b) => a - b);
    const out: LocalInterval[] = [];
    for (let i = 0; i + 1 < s.length; i += 2) out.push({ startMinute: s[i]!, endMinute: s[i + 1]! });
    return out;
  });

export const arbInput = fc
  .record({
    zoneAndDay: fc.oneof(
      fc.record({ zone: fc.constantFrom(...ZONES), day: fc.integer({ min: FIRST_DAY, max: LAST_DAY }) }),
      fc.constantFrom(...TRANSITIONS).chain(([zone, dates]) =>
        fc.record({ zone: fc.constant(zone), day: fc.constantFrom(...dates).chain((d) => fc.integer({ min: dayNumber(d) - 3, max: dayNumber(d) + 1 })) }),
      ),
    ),
    guestZone: fc.constantFrom(...ZONES),
    week: fc.array(dayHours, { minLength: 7, maxLength: 7 }),
    overrides: fc.uniqueArray(fc.record({ offset: fc.integer({ min: -3, max: 35 }), intervals: dayHours }), { maxLength: 6, selector: (o) => o.offset }),
    duration: fc.oneof(fc.integer({ min: 5, max: 720 }), fc.integer({ min: 1, max: 8 }).map((x) => x * 15)),
    before: fc.integer({ min: 0, max: 240 }),
    after: fc.integer({ min: 0, max: 240 }),
    step: fc.option(fc.oneof(fc.integer({ min: 5, max: 720 }), fc.integer({ min: 1, max: 8 }).map((x) => x * 15))),
    length: fc.integer({ min: 0, max: 31 }),
    nowOffsetMinutes: fc.integer({ min: -10 * 1440, max: 5 * 1440 }),
    notice: fc.oneof(fc.integer({ min: 0, max: 72 }), fc.constantFrom(0.5, 1.5)),
    advance: fc.integer({ min: 0, max: 60 }),
    // Busy edges on a 15-minute grid half the time, so they often touch a buffered slot exactly.
    busy: fc.array(
      fc.oneof(
        fc.record({ at: fc.integer({ min: -2 * 1440, max: 34 * 1440 }), length: fc.integer({ min: 1, max: 600 }) }),
        fc.record({ at: fc.integer({ min: -2 * 96, max: 34 * 96 }).map((x) => x * 15), length: fc.integer({ min: 1, max: 40 }).map((x) => x * 15) }),
      ),
      { maxLength: 10 },
    ),
    // Time off and holidays (decisions §21): whole local days of the host's, some of them DST days.
    timeOff: fc.array(fc.record({ offset: fc.integer({ min: -3, max: 35 }), days: fc.integer({ min: 1, max: 4 }), holiday: fc.boolean() }), { maxLength: 2 }),
    // Booking limits (decisions §16) half the time: starts of the type's bookings from a week back on.
    limits: fc.option(
      fc.record({
        perDay: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
        perWeek: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
        booked: fc.array(fc.integer({ min: -8 * 1440, max: 34 * 1440 }), { maxLength: 12 }),
      }),
      { nil: undefined },
    ),
  })
  .map((r): SlotInput => {
    const { zone: hostZone, day: fromDay } = r.zoneAndDay;
    const from = fromDay * DAY;
    return {
      now: from + r.nowOffsetMinutes * MINUTE,
      host: { timeZone: hostZone, minNoticeHours: r.notice, maxAdvanceDays: r.advance },
      weeklyRules: r.week.flatMap((hours, dayOfWeek) => hours.map((h): WeeklyRule => ({ dayOfWeek, ...h }))),
      overrides: r.overrides.map((o): DateOverride => ({ date: isoDate(fromDay + o.offset), intervals: o.intervals })),
      eventType: { durationMinutes: r.duration, bufferBeforeMinutes: r.before, bufferAfterMinutes: r.after, slotIntervalMinutes: r.step },
      busy: r.busy.map((b) => ({ start: from + b.at * MINUTE, end: from + (b.at + b.length) * MINUTE })),
      ...(r.timeOff.length > 0 ? { timeOff: r.timeOff.map((t) => daysOff(hostZone, fromDay + t.offset, t.days, t.holiday)) } : {}),
      ...(r.limits
        ? {
            limits: {
              ...(r.limits.perDay !== undefined ? { perDay: r.limits.perDay } : {}),
              ...(r.limits.perWeek !== undefined ? { perWeek: r.limits.perWeek } : {}),
              booked: r.limits.booked.map((at) => from + at * MINUTE),
            },
          }
        : {}),
      range: { from: isoDate(fromDay), to: isoDate(fromDay + r.length), timeZone: r.guestZone },
    };
  });

/** Local days of `zone` from `day` on (a holiday is one), as the loader makes them (timeOffOf). */
export function daysOff(zone: string, day: number, days: number, holiday: boolean): TimeOff {
  const first = isoDate(day);
  return holiday ? timeOffOf(zone, [], [{ date: first, name: "A holiday" }])[0]! : timeOffOf(zone, [{ id: `ooo_${day}`, startDate: first, endDate: isoDate(day + days - 1) }], [])[0]!;
}

/**
 * arbInput, a seated event type half the time (decisions §19): up to 5 seats, and starts already
 * holding seats (some full, some beyond a lowered max) on a 15-minute grid near the range, each
 * blocked over the session and the type's buffers, as the booking service groups them.
 */
export const arbSeatedInput = fc
  .tuple(
    arbInput,
    fc.option(
      fc.record({
        max: fc.integer({ min: 1, max: 5 }),
        starts: fc.uniqueArray(fc.record({ at: fc.integer({ min: -2 * 96, max: 34 * 96 }), taken: fc.integer({ min: 1, max: 6 }) }), { maxLength: 8, selector: (s) => s.at }),
      }),
      { nil: undefined },
    ),
  )
  .map(([input, seats]): SlotInput => {
    if (!seats) return input;
    const from = dayNumber(input.range.from) * DAY;
    const { durationMinutes, bufferBeforeMinutes, bufferAfterMinutes } = input.eventType;
    const starts = seats.starts
      .map(({ at, taken }) => {
        const start = from + at * 15 * MINUTE;
        return { start, blocked: { start: start - bufferBeforeMinutes * MINUTE, end: start + (durationMinutes + bufferAfterMinutes) * MINUTE }, taken, bookingId: `bkg_seat_${at}` };
      })
      .sort((a, b) => a.start - b.start);
    return { ...input, seats: { max: seats.max, starts } };
  });
