import { z } from "zod";
import { minutesOf, TIME_OF_DAY } from "@/lib/time/instants";
import { DateString, TimeOfDay, TimeZone, WholeNumber } from "./common";

const Interval = z.strictObject({ startTime: TimeOfDay, endTime: TimeOfDay });

type Span = { startTime: string; endTime: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
/** An interval whose two times are well formed (a malformed one has its own issue already). */
const isSpan = (value: unknown): value is Span =>
  isRecord(value) && typeof value.startTime === "string" && TIME_OF_DAY.test(value.startTime) && typeof value.endTime === "string" && TIME_OF_DAY.test(value.endTime);

/** Adds an issue for every interval that is empty or overlaps an earlier one of the same group. */
function checkIntervals(ctx: z.RefinementCtx, spans: { span: unknown; path: (string | number)[] }[]) {
  const seen: { start: number; end: number }[] = [];
  for (const { span, path } of spans) {
    if (!isSpan(span)) continue;
    const start = minutesOf(span.startTime);
    const end = minutesOf(span.endTime);
    if (start >= end) {
      ctx.addIssue({ code: "custom", path: [...path, "endTime"], message: "endTime must be after startTime" });
      continue;
    }
    // Half-open intervals: 09:00–12:00 and 12:00–17:00 touch but do not overlap.
    if (seen.some((s) => start < s.end && s.start < end)) {
      ctx.addIssue({ code: "custom", path: [...path, "startTime"], message: "Overlaps another interval of the same day" });
    }
    seen.push({ start, end });
  }
}

const WeeklyRule = z.strictObject({
  dayOfWeek: z.number().int().min(0).max(6).meta({ description: "0 = Sunday … 6 = Saturday" }),
  startTime: TimeOfDay,
  endTime: TimeOfDay,
});

const DateOverride = z.strictObject({
  date: DateString,
  available: z.boolean(),
  intervals: z.array(Interval).max(48).optional(),
});

export const WeeklyRules = z.array(WeeklyRule).max(7 * 48);
export const DateOverrides = z.array(DateOverride).max(1000);

/**
 * The checks of a body's `weeklyRules` and `dateOverrides` (availability and schedules alike):
 * no empty or overlapping intervals in a day, one override per date, intervals exactly when open.
 */
export function checkHours(value: unknown, ctx: z.RefinementCtx): void {
  if (!isRecord(value)) return;
  const rules = listOf(value.weeklyRules);
  for (let day = 0; day <= 6; day++) {
    checkIntervals(
      ctx,
      rules.flatMap((rule, i) => (isRecord(rule) && rule.dayOfWeek === day ? [{ span: rule, path: ["weeklyRules", i] }] : [])),
    );
  }
  const dates = new Set<unknown>();
  listOf(value.dateOverrides).forEach((o, i) => {
    if (!isRecord(o)) return;
    if (typeof o.date === "string" && dates.has(o.date)) {
      ctx.addIssue({ code: "custom", path: ["dateOverrides", i, "date"], message: "Only one override per date" });
    }
    dates.add(o.date);
    const intervals = listOf(o.intervals);
    if (o.available === true && intervals.length === 0) {
      ctx.addIssue({ code: "custom", path: ["dateOverrides", i, "intervals"], message: "An available day needs at least one interval" });
    }
    if (o.available === false && intervals.length > 0) {
      ctx.addIssue({ code: "custom", path: ["dateOverrides", i, "intervals"], message: "An unavailable day has no intervals" });
    }
    checkIntervals(ctx, intervals.map((span, j) => ({ span, path: ["dateOverrides", i, "intervals", j] })));
  });
}

export const AvailabilityBody = z
  .strictObject({
    timezone: TimeZone.optional(),
    minNoticeHours: WholeNumber(0, 8760, "hours"),
    maxAdvanceDays: WholeNumber(1, 730, "days"),
    weeklyRules: WeeklyRules,
    dateOverrides: DateOverrides,
  })
  // Every problem at once: the intervals are checked whatever else is wrong (a notice out of
  // range, another row's malformed time), each group with its well-formed rows.
  .superRefine(checkHours, { when: () => true });

export const WeeklyRulesOut = z.array(z.object({ dayOfWeek: z.number().int(), startTime: z.string(), endTime: z.string() }));
export const DateOverridesOut = z.array(
  z.object({
    date: z.string(),
    available: z.boolean(),
    intervals: z.array(z.object({ startTime: z.string(), endTime: z.string() })).optional(),
  }),
);

export const Availability = z
  .object({
    timezone: z.string(),
    minNoticeHours: z.number().int(),
    maxAdvanceDays: z.number().int(),
    weeklyRules: WeeklyRulesOut,
    dateOverrides: DateOverridesOut,
  })
  .meta({ id: "Availability" });
