import type { EventTypeDto, EventTypeInputOf, SchedulingType } from "@/lib/browser/api-client/event-types";

type EventTypeInput = EventTypeInputOf<{ kind: "me" }>;
import { CreateEventTypeBody, UpdateEventTypeBody } from "@/lib/schemas/event-type";
import { slugify } from "@/lib/slugify";
import type { FoundIssue } from "./field-errors";
import type { FormRules } from "./resolver";

// The event-type form's model: its values as typed, the body they become, where an issue of the
// API's schema (lib/schemas/event-type.ts, which checks the form in the browser too) is shown,
// and the page's words for what the browser finds. The fields carry the API's own paths
// (customQuestions.0.label), so the API's issues land at the same fields.

type QuestionType = EventTypeDto["customQuestions"][number]["type"];
type ChoiceDisplay = NonNullable<EventTypeDto["customQuestions"][number]["display"]>;

/** A question as the editor holds it: its options as the host's text, kept while the type changes. */
export type QuestionDraft = {
  /** The stored question's id, which a new one has not yet (it is made from its label). */
  savedId: string | null;
  label: string;
  required: boolean;
  type: QuestionType;
  options: string;
  display: ChoiceDisplay;
};

export type ReminderUnit = "minutes" | "hours" | "days";
export type ReminderRecipient = EventTypeDto["reminders"][number]["to"];
/** A reminder as the editor holds it: an amount of a unit before the start, and who gets it. */
export type ReminderDraft = { amount: string; unit: ReminderUnit; to: ReminderRecipient };

export const MAX_REMINDERS = 5;
export const MINUTES_PER: Record<ReminderUnit, number> = { minutes: 1, hours: 60, days: 1440 };
export const newReminder = (): ReminderDraft => ({ amount: "1", unit: "days", to: "guest" });

/** A stored reminder in the largest unit that says it exactly (1440 minutes: 1 day). */
export function reminderDraft({ minutesBefore, to }: EventTypeDto["reminders"][number]): ReminderDraft {
  const unit: ReminderUnit = minutesBefore % 1440 === 0 ? "days" : minutesBefore % 60 === 0 ? "hours" : "minutes";
  return { amount: String(minutesBefore / MINUTES_PER[unit]), unit, to };
}

/** The form as typed: numbers are still text. */
export type EventTypeValues = {
  title: string;
  slug: string;
  description: string;
  location: string;
  color: string;
  durationMinutes: string;
  bufferBeforeMinutes: string;
  bufferAfterMinutes: string;
  /** "" = the same as the duration */
  slotIntervalMinutes: string;
  customQuestions: QuestionDraft[];
  /** New bookings wait for the host's confirmation (decisions §16). */
  requiresConfirmation: boolean;
  /** "" = no limit. */
  limits: { perDay: string; perWeek: string };
  /** The schedule whose hours it offers; "" = the host's default schedule. */
  scheduleId: string;
  /** "" = the host's own (their availability's setting). */
  minNoticeHours: string;
  maxAdvanceDays: string;
  reminders: ReminderDraft[];
  /** A team event type's only (lib/forms/team.ts): how bookings go to the hosts, "" until chosen. */
  schedulingType?: SchedulingType | "";
  /** A team event type's only: the members who host it. */
  hostIds?: string[];
};

export const MAX_QUESTIONS = 20;

export const newQuestion = (): QuestionDraft => ({ savedId: null, label: "", required: false, type: "text", options: "", display: "radio" });

/** The form of a stored event type, or of a new one. */
export function eventTypeValues(eventType: EventTypeDto | undefined): EventTypeValues {
  if (!eventType) {
    return {
      title: "",
      slug: "",
      description: "",
      location: "",
      color: "#2563eb",
      durationMinutes: "30",
      bufferBeforeMinutes: "0",
      bufferAfterMinutes: "0",
      slotIntervalMinutes: "",
      customQuestions: [],
      requiresConfirmation: false,
      limits: { perDay: "", perWeek: "" },
      scheduleId: "",
      minNoticeHours: "",
      maxAdvanceDays: "",
      reminders: [],
    };
  }
  return {
    title: eventType.title,
    slug: eventType.slug,
    description: eventType.description,
    location: eventType.location,
    color: eventType.color,
    durationMinutes: String(eventType.durationMinutes),
    bufferBeforeMinutes: String(eventType.bufferBeforeMinutes),
    bufferAfterMinutes: String(eventType.bufferAfterMinutes),
    slotIntervalMinutes: eventType.slotIntervalMinutes === eventType.durationMinutes ? "" : String(eventType.slotIntervalMinutes),
    customQuestions: eventType.customQuestions.map((q) => ({
      savedId: q.id,
      label: q.label,
      required: q.required,
      type: q.type,
      options: (q.options ?? []).join("\n"),
      display: q.display ?? "radio",
    })),
    requiresConfirmation: eventType.requiresConfirmation,
    limits: { perDay: optionalText(eventType.limits.perDay), perWeek: optionalText(eventType.limits.perWeek) },
    scheduleId: eventType.scheduleId ?? "",
    minNoticeHours: optionalText(eventType.minNoticeHours),
    maxAdvanceDays: optionalText(eventType.maxAdvanceDays),
    reminders: eventType.reminders.map(reminderDraft),
  };
}

const optionalText = (n: number | null | undefined) => (n === null || n === undefined ? "" : String(n));

/** An optional whole number as typed: "" is none (null), anything else is read as whole or NaN. */
const optionalNumber = (text: string) => (text.trim() === "" ? null : wholeNumber(text));

/** A whole number as typed (" 45 "), or NaN ("", "4.5", "1e3", "-"), which the API refuses. */
export function wholeNumber(text: string): number {
  return /^\s*\d{1,6}\s*$/.test(text) ? Number(text) : Number.NaN;
}

export const isChoice = (type: QuestionType) => type === "single_choice" || type === "checkboxes";

/** The options the host wrote, one a line; blank lines are spacing, not options. */
export const optionLines = (text: string) =>
  text
    .split("\n")
    .map((o) => o.trim())
    .filter(Boolean);

/**
 * The questions as the API takes them. Question ids are the keys of a guest's answers: an
 * existing question keeps its id (renaming the label does not orphan earlier answers); a new one
 * gets one made from its label.
 */
export function toQuestionInputs(drafts: QuestionDraft[]): NonNullable<EventTypeInput["customQuestions"]> {
  const taken = new Set(drafts.flatMap((q) => (q.savedId ? [q.savedId] : [])));
  return drafts.map((q, i) => {
    let id = q.savedId;
    if (!id) {
      const base = slugify(q.label, 40) || `question-${i + 1}`;
      id = base;
      for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
      taken.add(id);
    }
    const base = { id, label: q.label, required: q.required, type: q.type };
    if (q.type === "single_choice") return { ...base, options: optionLines(q.options), display: q.display };
    if (q.type === "checkboxes") return { ...base, options: optionLines(q.options) };
    return base;
  });
}

/** The body the form sends (POST or PATCH: every field). */
export function toEventTypeBody(v: EventTypeValues): EventTypeInput {
  return {
    title: v.title,
    slug: v.slug,
    description: v.description,
    durationMinutes: wholeNumber(v.durationMinutes),
    location: v.location,
    bufferBeforeMinutes: wholeNumber(v.bufferBeforeMinutes),
    bufferAfterMinutes: wholeNumber(v.bufferAfterMinutes),
    slotIntervalMinutes: v.slotIntervalMinutes.trim() === "" ? null : wholeNumber(v.slotIntervalMinutes),
    color: v.color,
    customQuestions: toQuestionInputs(v.customQuestions),
    requiresConfirmation: v.requiresConfirmation,
    limits: {
      ...(optionalNumber(v.limits.perDay) === null ? {} : { perDay: optionalNumber(v.limits.perDay)! }),
      ...(optionalNumber(v.limits.perWeek) === null ? {} : { perWeek: optionalNumber(v.limits.perWeek)! }),
    },
    scheduleId: v.scheduleId === "" ? null : v.scheduleId,
    minNoticeHours: optionalNumber(v.minNoticeHours),
    maxAdvanceDays: optionalNumber(v.maxAdvanceDays),
    reminders: v.reminders.map((r) => ({ minutesBefore: wholeNumber(r.amount) * MINUTES_PER[r.unit], to: r.to })),
  };
}

const TOP_LEVEL = new Set([
  "title",
  "slug",
  "description",
  "location",
  "color",
  "durationMinutes",
  "slotIntervalMinutes",
  "bufferBeforeMinutes",
  "bufferAfterMinutes",
  "requiresConfirmation",
  "limits.perDay",
  "limits.perWeek",
  "scheduleId",
  "minNoticeHours",
  "maxAdvanceDays",
]);
/** A reminder's minutes are typed as an amount of a unit: a problem with them is shown at the amount. */
const REMINDER_PATH = /^reminders\.(\d+)\.(minutesBefore|to)$/;
/** The parts of a question the form shows a problem at (its id is made from its label, so at the label). */
const QUESTION_FIELDS: Record<string, string> = { label: "label", id: "label", type: "type", display: "display", options: "options" };
const QUESTION_PATH = /^customQuestions\.(\d+)\.(\w+)(?:\.(\d+))?$/;

/**
 * The form field that shows an API issue at `path`, or undefined when no field shows it: such a
 * problem is listed above the form instead (see `unplacedWords`). A problem of the list itself
 * is shown at its heading (`customQuestions.root`); one of an option, at the options box.
 */
export function eventTypeFieldOf(path: string): string | undefined {
  if (TOP_LEVEL.has(path)) return path;
  if (path === "customQuestions") return "customQuestions.root";
  if (path === "reminders") return "reminders.root";
  const reminder = REMINDER_PATH.exec(path);
  if (reminder) return `reminders.${reminder[1]}.${reminder[2] === "to" ? "to" : "amount"}`;
  if (path === "limits") return "limits.perDay";
  const question = QUESTION_PATH.exec(path);
  const part = question && QUESTION_FIELDS[question[2]!];
  if (!question || !part || (question[3] !== undefined && part !== "options")) return undefined;
  return `customQuestions.${question[1]}.${part}`;
}

/** An option's problem says which option ("Option 3: …"): the box holds them all. */
export function eventTypeServerWords(message: string, issue: { path: string }): string {
  const option = QUESTION_PATH.exec(issue.path);
  return option?.[2] === "options" && option[3] !== undefined ? `Option ${Number(option[3]) + 1}: ${message}` : message;
}

/** An API problem no field shows, in words that say where it is ("Question 2: …"). */
export function unplacedWords(message: string, path: string): string {
  const question = /^customQuestions\.(\d+)/.exec(path);
  if (question) return `Question ${Number(question[1]) + 1}: ${message}`;
  const reminder = /^reminders\.(\d+)/.exec(path);
  return reminder ? `Reminder ${Number(reminder[1]) + 1}: ${message}` : message;
}

/** Words for what is wrong with a slug the schema refused. */
function slugWords(slug: string): string | undefined {
  if (slug.trim() === "") return "Enter the last part of the booking link, e.g. intro-call.";
  if (slug.length > 64) return "Use at most 64 characters.";
  const pattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
  if (/[A-Z]/.test(slug) && pattern.test(slug.toLowerCase())) return "Use lower-case letters only.";
  if (/^-|-$/.test(slug)) return "Start and end with a letter or digit, not a hyphen.";
  if (/--/.test(slug)) return "Use single hyphens between words.";
  return "Use only lower-case letters, digits and hyphens, e.g. intro-call (no spaces or other signs).";
}

const NUMBER_WORDS: Record<string, string> = {
  durationMinutes: "Enter whole minutes from 5 to 720.",
  slotIntervalMinutes: "Enter whole minutes from 5 to 720, or leave it empty.",
  bufferBeforeMinutes: "Enter whole minutes from 0 to 240 (0 for none).",
  bufferAfterMinutes: "Enter whole minutes from 0 to 240 (0 for none).",
  "limits.perDay": "Enter a whole number from 1 to 100, or leave it empty for no limit.",
  "limits.perWeek": "Enter a whole number from 1 to 100, or leave it empty for no limit.",
  minNoticeHours: "Enter whole hours from 0 to 8760, or leave it empty for the host's own.",
  maxAdvanceDays: "Enter whole days from 1 to 730, or leave it empty for the host's own.",
};
const TOO_LONG: Record<string, string> = { title: "Use at most 200 characters.", description: "Use at most 5000 characters.", location: "Use at most 500 characters." };

/** The page's words for a problem the schema found in the form (undefined keeps the schema's own). */
export function eventTypeWords(issue: FoundIssue, v: EventTypeValues): string | undefined {
  const { path, code } = issue;
  if (path === "title" && code === "too_small") return "Enter a title.";
  if (code === "too_big" && TOO_LONG[path]) return TOO_LONG[path];
  if (path === "slug") return slugWords(v.slug);
  if (path === "color") return "Choose a colour.";
  if (path === "durationMinutes" && v.durationMinutes.trim() === "") return "Enter how long it lasts, from 5 to 720 minutes.";
  if (NUMBER_WORDS[path]) return NUMBER_WORDS[path];
  const reminder = REMINDER_PATH.exec(path);
  if (reminder?.[2] === "minutesBefore") return "Choose a time from 5 minutes to 7 days before the start.";
  if (path === "reminders" && code === "too_big") return `Keep at most ${MAX_REMINDERS} reminders.`;
  const question = QUESTION_PATH.exec(path);
  if (question?.[2] === "label" && code === "too_small") return "Write the question, or remove it.";
  if (question?.[2] === "options" && question[3] === undefined && code === "too_small") return "Write at least one option, one a line.";
  return eventTypeServerWords(issue.message, issue);
}

const rules = (schema: FormRules<EventTypeValues>["schema"]): FormRules<EventTypeValues> => ({
  schema,
  toBody: toEventTypeBody,
  fieldOf: eventTypeFieldOf,
  words: eventTypeWords,
});
/** Checked as the API checks a new event type (POST) and a change (PATCH, every field sent). */
export const newEventTypeRules = rules(CreateEventTypeBody);
export const eventTypeChangeRules = rules(UpdateEventTypeBody);
