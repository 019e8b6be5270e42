import type { AvailabilityDto, AvailabilityInput } from "@/lib/browser/api-client/host";
import { placeIssues as placeAtFields } from "@/lib/forms/field-errors";

// The availability editor's model, kept apart from React so it can be tested against the API's
// own schema: a draft the form edits, the PUT body it becomes, the checks the API will make
// (run first, in words a person reads), and the way back from an API issue path such as
// `weeklyRules.3.endTime` to the row on screen that produced rule 3.

export type Span = { startTime: string; endTime: string };
export type IntervalDraft = Span & { key: string };
export type DayDraft = { enabled: boolean; intervals: IntervalDraft[] };
export type OverrideDraft = { key: string; date: string; available: boolean; intervals: IntervalDraft[] };
export type AvailabilityDraft = {
  timezone: string;
  /** As typed: the inputs may hold anything until Save checks them. */
  minNoticeHours: string;
  maxAdvanceDays: string;
  /** Index = dayOfWeek on the wire: 0 = Sunday … 6 = Saturday. */
  days: DayDraft[];
  overrides: OverrideDraft[];
};

/** Where a problem is shown. */
export type Spot =
  | "timezone"
  | "minNoticeHours"
  | "maxAdvanceDays"
  | `interval:${string}:startTime`
  | `interval:${string}:endTime`
  | `override:${string}:date`
  | `override:${string}:intervals`;
export type Problems = Partial<Record<Spot, string>>;

export const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
export const dayName = (dayOfWeek: number): string => DAY_NAMES[dayOfWeek] ?? "";
/** The order the editor shows the week in. */
export const MONDAY_FIRST = [1, 2, 3, 4, 5, 6, 0] as const;
export const END_OF_DAY = "24:00";

let lastKey = 0;
export const newKey = () => `k${++lastKey}`;

const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;

export function minutesOf(time: string): number {
  const [h, m] = time.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

export function timeOf(minutes: number): string {
  const clamped = Math.max(0, Math.min(24 * 60, minutes));
  return `${String(Math.floor(clamped / 60)).padStart(2, "0")}:${String(clamped % 60).padStart(2, "0")}`;
}

const withKeys = (spans: Span[]): IntervalDraft[] => spans.map((s) => ({ key: newKey(), startTime: s.startTime, endTime: s.endTime }));

/**
 * A draft of the stored availability. Its keys are counted from 1 for each draft (`s1`, `s2` …),
 * not from the module's counter: the page is rendered on the server and again in the browser,
 * and the two must give the same keys (they end up in `data-spot`, which focuses a field from the
 * list of problems). Rows added later take `newKey()`'s `k…`, which never collides.
 */
export function draftFrom(a: AvailabilityDto): AvailabilityDraft {
  let n = 0;
  const stableKey = () => `s${++n}`;
  const stableKeys = (spans: Span[]): IntervalDraft[] => spans.map((s) => ({ key: stableKey(), startTime: s.startTime, endTime: s.endTime }));
  const days = DAY_NAMES.map((_, day) => {
    const rules = a.weeklyRules.filter((r) => r.dayOfWeek === day).sort((x, y) => minutesOf(x.startTime) - minutesOf(y.startTime));
    return { enabled: rules.length > 0, intervals: stableKeys(rules) };
  });
  const overrides = [...a.dateOverrides]
    .sort((x, y) => x.date.localeCompare(y.date))
    .map((o) => ({ key: stableKey(), date: o.date, available: o.available, intervals: stableKeys(o.available ? (o.intervals ?? []) : []) }));
  return {
    timezone: a.timezone,
    minNoticeHours: String(a.minNoticeHours),
    maxAdvanceDays: String(a.maxAdvanceDays),
    days,
    overrides,
  };
}

/** A whole number as typed, or NaN. */
function wholeNumber(text: string): number {
  return /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
}

/**
 * The PUT body, and for each rule and override in it the row it came from: the API names
 * problems by array index, the screen by row.
 */
export function toBody(d: AvailabilityDraft): {
  body: AvailabilityInput;
  rules: { day: number; key: string }[];
  overrides: { key: string; intervals: string[] }[];
} {
  const rules: { day: number; key: string }[] = [];
  const weeklyRules: AvailabilityInput["weeklyRules"] = [];
  d.days.forEach((day, dayOfWeek) => {
    if (!day.enabled) return; // a day switched off has no hours, whatever the form still remembers
    for (const i of day.intervals) {
      weeklyRules.push({ dayOfWeek, startTime: i.startTime, endTime: i.endTime });
      rules.push({ day: dayOfWeek, key: i.key });
    }
  });
  const overrides = d.overrides.map((o) => ({ key: o.key, intervals: o.available ? o.intervals.map((i) => i.key) : [] }));
  const dateOverrides = d.overrides.map((o) =>
    o.available
      ? { date: o.date, available: true, intervals: o.intervals.map(({ startTime, endTime }) => ({ startTime, endTime })) }
      : { date: o.date, available: false },
  );
  return {
    body: {
      timezone: d.timezone,
      minNoticeHours: wholeNumber(d.minNoticeHours),
      maxAdvanceDays: wholeNumber(d.maxAdvanceDays),
      weeklyRules,
      dateOverrides,
    },
    rules,
    overrides,
  };
}

/** The same checks as the API (lib/schemas/availability.ts), worded for the person at the row. */
function checkSpans(intervals: IntervalDraft[], problems: Problems) {
  const seen: { start: number; end: number }[] = [];
  for (const i of intervals) {
    if (!TIME.test(i.startTime)) {
      problems[`interval:${i.key}:startTime`] = "Enter a start time.";
      continue;
    }
    if (!TIME.test(i.endTime)) {
      problems[`interval:${i.key}:endTime`] = "Enter an end time.";
      continue;
    }
    const start = minutesOf(i.startTime);
    const end = minutesOf(i.endTime);
    if (start >= end) {
      problems[`interval:${i.key}:endTime`] = "The end must be after the start.";
      continue;
    }
    // Half-open, as the API: 09:00–12:00 and 12:00–17:00 touch but do not overlap.
    const clash = seen.find((s) => start < s.end && s.start < end);
    if (clash) {
      problems[`interval:${i.key}:startTime`] = `Overlaps ${timeOf(clash.start)}–${timeOf(clash.end)}.`;
    }
    seen.push({ start, end });
  }
}

export function validate(d: AvailabilityDraft): Problems {
  const problems: Problems = {};
  if (!d.timezone.trim()) problems.timezone = "Choose a timezone.";
  const notice = wholeNumber(d.minNoticeHours);
  if (!(notice >= 0 && notice <= 8760)) problems.minNoticeHours = "Enter whole hours from 0 to 8760 (a year).";
  const window = wholeNumber(d.maxAdvanceDays);
  if (!(window >= 1 && window <= 730)) problems.maxAdvanceDays = "Enter whole days from 1 to 730 (two years).";
  for (const day of d.days) if (day.enabled) checkSpans(day.intervals, problems);
  const dates = new Set<string>();
  for (const o of d.overrides) {
    if (!o.date) problems[`override:${o.key}:date`] = "Choose a date.";
    else if (dates.has(o.date)) problems[`override:${o.key}:date`] = "This date already has an override above.";
    dates.add(o.date);
    if (o.available && o.intervals.length === 0) problems[`override:${o.key}:intervals`] = "Add hours, or mark the day closed.";
    if (o.available) checkSpans(o.intervals, problems);
  }
  return problems;
}

/**
 * The API's issues placed at their rows. An issue whose path names no row of this draft (the
 * form changed since, or a rule the page does not know) is returned in `unplaced`, for the summary.
 */
export function placeIssues(
  issues: { path: string; message: string }[],
  sent: ReturnType<typeof toBody>,
): { problems: Problems; unplaced: string[] } {
  const placed = placeAtFields<Spot>(issues, (path) => spotOf(path, sent), humanise);
  return { problems: placed.errors, unplaced: placed.unplaced.map((i) => i.message) };
}

// The API's words name its fields ("endTime must be after startTime"); the page names the boxes.
function humanise(message: string): string {
  const text = message.replace(/\bendTime\b/g, "the end").replace(/\bstartTime\b/g, "the start");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function spotOf(path: string, sent: ReturnType<typeof toBody>): Spot | undefined {
  const [head, index, field, j, subfield] = path.split(".");
  if (head === "timezone" || head === "minNoticeHours" || head === "maxAdvanceDays") return head;
  if (head === "weeklyRules" && index !== undefined) {
    const rule = sent.rules[Number(index)];
    if (!rule) return undefined;
    return field === "endTime" ? `interval:${rule.key}:endTime` : `interval:${rule.key}:startTime`;
  }
  if (head === "dateOverrides" && index !== undefined) {
    const override = sent.overrides[Number(index)];
    if (!override) return undefined;
    if (field === "intervals" && j !== undefined) {
      const key = override.intervals[Number(j)];
      if (key) return subfield === "endTime" ? `interval:${key}:endTime` : `interval:${key}:startTime`;
      return `override:${override.key}:intervals`;
    }
    if (field === "intervals" || field === "available") return `override:${override.key}:intervals`;
    return `override:${override.key}:date`;
  }
  return undefined;
}

/** Words for where a problem is, for the summary above the form ("Monday, interval 2"). */
export function describeSpot(d: AvailabilityDraft, spot: Spot, formatDate: (date: string) => string): string {
  if (spot === "timezone") return "Timezone";
  if (spot === "minNoticeHours") return "Minimum notice";
  if (spot === "maxAdvanceDays") return "Booking window";
  const [kind, key] = spot.split(":");
  if (kind === "override") {
    const o = d.overrides.find((x) => x.key === key);
    return o?.date ? `Override for ${formatDate(o.date)}` : "New date override";
  }
  for (const [day, dd] of d.days.entries()) {
    const n = dd.intervals.findIndex((i) => i.key === key);
    if (n >= 0) return `${dayName(day)}, interval ${n + 1}`;
  }
  for (const o of d.overrides) {
    const n = o.intervals.findIndex((i) => i.key === key);
    if (n >= 0) return `${o.date ? `Override for ${formatDate(o.date)}` : "New date override"}, interval ${n + 1}`;
  }
  return "Availability";
}

/**
 * Where a problem's spot sits on the page, top to bottom (timezone, the week from Monday, the
 * overrides, the limits): the summary lists problems in the order the focus meets them.
 */
export function pageRank(d: AvailabilityDraft, spot: Spot): number {
  if (spot === "timezone") return 0;
  if (spot === "minNoticeHours") return 1e6;
  if (spot === "maxAdvanceDays") return 1e6 + 1;
  const [kind, key, field] = spot.split(":");
  const within = field === "endTime" ? 1 : 0;
  if (kind === "override") {
    const o = d.overrides.findIndex((x) => x.key === key);
    return 1e4 + o * 1e3 + (field === "date" ? 0 : 999);
  }
  for (const [n, day] of MONDAY_FIRST.entries()) {
    const i = d.days[day]!.intervals.findIndex((x) => x.key === key);
    if (i >= 0) return 1 + n * 1e3 + i * 2 + within;
  }
  for (const [o, override] of d.overrides.entries()) {
    const i = override.intervals.findIndex((x) => x.key === key);
    if (i >= 0) return 1e4 + o * 1e3 + 1 + i * 2 + within;
  }
  return 1e6 - 1;
}

/** A sensible next interval for a day: an hour, an hour after its latest end (or 09:00–17:00 for an empty day). */
export function nextInterval(intervals: Span[]): IntervalDraft {
  const ends = intervals.map((i) => minutesOf(i.endTime)).filter((m) => Number.isFinite(m));
  if (ends.length === 0) return { key: newKey(), startTime: "09:00", endTime: "17:00" };
  const latest = Math.max(...ends);
  const start = Math.min(latest + 60, 23 * 60);
  return { key: newKey(), startTime: timeOf(start), endTime: timeOf(Math.min(start + 60, 24 * 60)) };
}

/** Day `from`'s hours (or its being off) onto each of `to`, as new rows. */
export function copyDay(d: AvailabilityDraft, from: number, to: number[]): AvailabilityDraft {
  const source = d.days[from]!;
  return {
    ...d,
    days: d.days.map((day, i) =>
      to.includes(i) && i !== from ? { enabled: source.enabled, intervals: withKeys(source.intervals) } : day,
    ),
  };
}

/** The weekly hours of `date`'s weekday, as a starting point for an override with its own hours. */
export function weeklyHoursOf(d: AvailabilityDraft, date: string): IntervalDraft[] {
  const [y, m, day] = date.split("-").map(Number);
  if (!y || !m || !day) return [];
  const weekday = new Date(Date.UTC(y, m - 1, day)).getUTCDay();
  const hours = d.days[weekday];
  return hours?.enabled ? withKeys(hours.intervals) : [];
}
