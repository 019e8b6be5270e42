import type { AvailabilityDto, AvailabilityInput } from "@/lib/browser/api-client/availability";
import { placeIssues as placeAtFields, type FieldErrors, type FoundIssue } from "@/lib/forms/field-errors";
import { checkForm, type FormRules } from "@/lib/forms/resolver";
import { AvailabilityBody } from "@/lib/schemas/availability";
import { minutesOf, TIME_OF_DAY } from "@/lib/time/instants";

// The availability editor's model, kept apart from React so it can be tested against the API's
// own schema: a draft the form edits, the PUT body it becomes, and the way back from an API issue
// path such as `weeklyRules.3.endTime` to the row on screen that produced rule 3. The checks are
// the API's (AvailabilityBody, run on the body in the browser too); this file only says where a
// problem is shown and in which words.

export type Span = { startTime: string; endTime: string };
export type DayDraft = { enabled: boolean; intervals: Span[] };
export type OverrideDraft = { date: string; available: boolean; intervals: Span[] };
export type AvailabilityDraft = {
  timezone: string;
  /** As typed: the inputs may hold anything until Save checks them. */
  minNoticeHours: string;
  maxAdvanceDays: string;
  /** Index = dayOfWeek on the wire: 0 = Sunday … 6 = Saturday. */
  days: DayDraft[];
  overrides: OverrideDraft[];
};

type Time = "startTime" | "endTime";
/** Where a problem is shown: the path of the draft's field (an override's missing hours at its "available" choice). */
export type Spot =
  | "timezone"
  | "minNoticeHours"
  | "maxAdvanceDays"
  | `days.${number}.intervals.${number}.${Time}`
  | `overrides.${number}.date`
  | `overrides.${number}.available`
  | `overrides.${number}.intervals.${number}.${Time}`;
export type Problems = FieldErrors<Spot>;

export const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
export const dayName = (dayOfWeek: number): string => DAY_NAMES[dayOfWeek] ?? "";
/** The order the editor shows the week in. */
export const MONDAY_FIRST = [1, 2, 3, 4, 5, 6, 0] as const;
export const END_OF_DAY = "24:00";

export { minutesOf };

export function timeOf(minutes: number): string {
  const clamped = Math.max(0, Math.min(24 * 60, minutes));
  return `${String(Math.floor(clamped / 60)).padStart(2, "0")}:${String(clamped % 60).padStart(2, "0")}`;
}

const copies = (spans: Span[]): Span[] => spans.map((s) => ({ startTime: s.startTime, endTime: s.endTime }));

/** A draft of the stored availability: each day's intervals by start, overrides by date. */
export function draftFrom(a: AvailabilityDto): AvailabilityDraft {
  const days = DAY_NAMES.map((_, day) => {
    const rules = a.weeklyRules.filter((r) => r.dayOfWeek === day).sort((x, y) => minutesOf(x.startTime) - minutesOf(y.startTime));
    return { enabled: rules.length > 0, intervals: copies(rules) };
  });
  const overrides = [...a.dateOverrides]
    .sort((x, y) => x.date.localeCompare(y.date))
    .map((o) => ({ date: o.date, available: o.available, intervals: copies(o.available ? (o.intervals ?? []) : []) }));
  return {
    timezone: a.timezone,
    minNoticeHours: String(a.minNoticeHours),
    maxAdvanceDays: String(a.maxAdvanceDays),
    days,
    overrides,
  };
}

/** A whole number as typed, or NaN (which the API refuses). */
function wholeNumber(text: string): number {
  return /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
}

/** The row of each weekly rule of the body, in the body's order: the API names problems by index, the screen by row. */
function ruleRows(d: AvailabilityDraft): { day: number; index: number }[] {
  // A day switched off has no hours, whatever the form still remembers.
  return d.days.flatMap((day, dayOfWeek) => (day.enabled ? day.intervals.map((_, index) => ({ day: dayOfWeek, index })) : []));
}

/** The PUT body. */
export function toBody(d: AvailabilityDraft): AvailabilityInput {
  return {
    timezone: d.timezone,
    minNoticeHours: wholeNumber(d.minNoticeHours),
    maxAdvanceDays: wholeNumber(d.maxAdvanceDays),
    weeklyRules: ruleRows(d).map(({ day, index }) => ({ dayOfWeek: day, ...copies([d.days[day]!.intervals[index]!])[0]! })),
    dateOverrides: d.overrides.map((o) =>
      o.available ? { date: o.date, available: true, intervals: copies(o.intervals) } : { date: o.date, available: false },
    ),
  };
}

/** The field of `d` that shows an issue of the API at `path` (of the body `toBody(d)`), or undefined when none does. */
export function spotOf(path: string, d: AvailabilityDraft): Spot | undefined {
  const [head, index, field, j, subfield] = path.split(".");
  if (head === "timezone" || head === "minNoticeHours" || head === "maxAdvanceDays") return head;
  const time = (name: string | undefined): Time => (name === "endTime" ? "endTime" : "startTime");
  if (head === "weeklyRules" && index !== undefined) {
    const rule = ruleRows(d)[Number(index)];
    return rule ? `days.${rule.day}.intervals.${rule.index}.${time(field)}` : undefined;
  }
  if (head === "dateOverrides" && index !== undefined) {
    const o = Number(index);
    const override = d.overrides[o];
    if (!override) return undefined;
    if (field === "intervals" && j !== undefined && override.intervals[Number(j)]) return `overrides.${o}.intervals.${Number(j)}.${time(subfield)}`;
    if (field === "intervals" || field === "available") return `overrides.${o}.available`;
    return `overrides.${o}.date`;
  }
  return undefined;
}

/** The intervals a spot's row belongs to, and its place among them. */
function rowOf(d: AvailabilityDraft, spot: string): { group: Span[]; index: number } | undefined {
  const day = /^days\.(\d+)\.intervals\.(\d+)\./.exec(spot);
  if (day) return { group: d.days[Number(day[1])]?.intervals ?? [], index: Number(day[2]) };
  const override = /^overrides\.(\d+)\.intervals\.(\d+)\./.exec(spot);
  if (override) return { group: d.overrides[Number(override[1])]?.intervals ?? [], index: Number(override[2]) };
  return undefined;
}

/** The earlier interval of the same group that `index` overlaps (the schema's own reading: half-open, well-formed ones). */
function clashOf(group: Span[], index: number): Span | undefined {
  const me = group[index];
  const wellFormed = (s: Span) => TIME_OF_DAY.test(s.startTime) && TIME_OF_DAY.test(s.endTime) && minutesOf(s.startTime) < minutesOf(s.endTime);
  if (!me || !wellFormed(me)) return undefined;
  return group.slice(0, index).find((s) => wellFormed(s) && minutesOf(me.startTime) < minutesOf(s.endTime) && minutesOf(s.startTime) < minutesOf(me.endTime));
}

/** The page's words for a problem the schema found in the draft (undefined keeps the schema's own). */
export function availabilityWords(issue: FoundIssue, d: AvailabilityDraft): string | undefined {
  if (issue.path === "timezone") return d.timezone.trim() === "" ? "Choose a timezone." : undefined;
  if (issue.path === "minNoticeHours") return "Enter whole hours from 0 to 8760 (a year).";
  if (issue.path === "maxAdvanceDays") return "Enter whole days from 1 to 730 (two years).";
  const spot = spotOf(issue.path, d);
  if (!spot) return undefined;
  const row = rowOf(d, spot);
  if (row && spot.endsWith(".startTime")) {
    if (issue.code !== "custom") return "Enter a start time.";
    const clash = clashOf(row.group, row.index);
    return clash ? `Overlaps ${clash.startTime}–${clash.endTime}.` : undefined;
  }
  if (row) return issue.code === "custom" ? "The end must be after the start." : "Enter an end time.";
  const o = Number(spot.split(".")[1]);
  const override = d.overrides[o];
  if (spot.endsWith(".date")) {
    if (!override?.date) return "Choose a date.";
    const repeated = d.overrides.slice(0, o).some((earlier) => earlier.date === override.date);
    // Otherwise the schema's own words: a date out of range says which years.
    return repeated ? "This date already has an override above." : undefined;
  }
  if (spot.endsWith(".available")) return "Add hours, or mark the day closed.";
  return undefined;
}

/** The editor's check: the API's schema over the body, placed at the rows, in the page's words. */
export const availabilityRules: FormRules<AvailabilityDraft> = {
  schema: AvailabilityBody,
  toBody,
  fieldOf: spotOf,
  words: availabilityWords,
};

/** Every problem the page finds in `d` before sending, by the field that shows it. */
export const validate = (d: AvailabilityDraft): Promise<Problems> => checkForm(availabilityRules, d);

/**
 * The API's issues placed at the rows of `sent`, the draft as it was sent. An issue whose path
 * names no row (a rule the page does not know) is returned in `unplaced`, for the summary.
 */
export function placeIssues(issues: { path: string; message: string }[], sent: AvailabilityDraft): { problems: Problems; unplaced: string[] } {
  const placed = placeAtFields<Spot>(issues, (path) => spotOf(path, sent), humanise);
  return { problems: placed.errors, unplaced: placed.unplaced.map((i) => i.message) };
}

// The API's words name its fields ("endTime must be after startTime"); the page names the boxes.
export function humanise(message: string): string {
  const text = message.replace(/\bendTime\b/g, "the end").replace(/\bstartTime\b/g, "the start");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const overrideName = (o: OverrideDraft | undefined, formatDate: (date: string) => string) =>
  o?.date ? `Override for ${formatDate(o.date)}` : "New date override";

/** Words for where a problem is, for the summary above the form ("Monday, interval 2"). */
export function describeSpot(d: AvailabilityDraft, spot: string, formatDate: (date: string) => string): string {
  if (spot === "timezone") return "Timezone";
  if (spot === "minNoticeHours") return "Minimum notice";
  if (spot === "maxAdvanceDays") return "Booking window";
  const [kind, index, field, row] = spot.split(".");
  if (kind === "days" && field === "intervals") return `${dayName(Number(index))}, interval ${Number(row) + 1}`;
  if (kind === "overrides") {
    const name = overrideName(d.overrides[Number(index)], formatDate);
    return field === "intervals" ? `${name}, interval ${Number(row) + 1}` : name;
  }
  return "Availability";
}

/**
 * Where a problem's spot sits on the page, top to bottom (timezone, the week from Monday, the
 * overrides, the limits): the summary lists problems in the order the focus meets them.
 */
export function pageRank(spot: string): number {
  if (spot === "timezone") return 0;
  if (spot === "minNoticeHours") return 1e6;
  if (spot === "maxAdvanceDays") return 1e6 + 1;
  const [kind, index, field, row, time] = spot.split(".");
  const within = time === "endTime" ? 1 : 0;
  if (kind === "days") return 1 + MONDAY_FIRST.indexOf(Number(index) as (typeof MONDAY_FIRST)[number]) * 1e3 + Number(row) * 2 + within;
  if (kind === "overrides") {
    const base = 1e4 + Number(index) * 1e3;
    if (field === "date") return base;
    if (field === "available") return base + 999;
    return base + 1 + Number(row) * 2 + within;
  }
  return 1e6 - 1;
}

/** A sensible next interval for a day: an hour, an hour after its latest end (or 09:00–17:00 for an empty day). */
export function nextInterval(intervals: Span[]): Span {
  const ends = intervals.map((i) => minutesOf(i.endTime)).filter((m) => Number.isFinite(m));
  if (ends.length === 0) return { startTime: "09:00", endTime: "17:00" };
  const latest = Math.max(...ends);
  const start = Math.min(latest + 60, 23 * 60);
  return { startTime: timeOf(start), endTime: timeOf(Math.min(start + 60, 24 * 60)) };
}

/** Day `from`'s hours (or its being off) onto each of `to`, as new rows. */
export function copyDay(d: AvailabilityDraft, from: number, to: number[]): AvailabilityDraft {
  const source = d.days[from]!;
  return {
    ...d,
    days: d.days.map((day, i) => (to.includes(i) && i !== from ? { enabled: source.enabled, intervals: copies(source.intervals) } : day)),
  };
}

/** The weekly hours of `date`'s weekday, as a starting point for an override with its own hours. */
export function weeklyHoursOf(d: AvailabilityDraft, date: string): Span[] {
  const [y, m, day] = date.split("-").map(Number);
  if (!y || !m || !day) return [];
  const weekday = new Date(Date.UTC(y, m - 1, day)).getUTCDay();
  const hours = d.days[weekday];
  return hours?.enabled ? copies(hours.intervals) : [];
}
