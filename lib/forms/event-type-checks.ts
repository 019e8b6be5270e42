import type { FieldErrors } from "./field-errors";

// The event-type form's checks before anything is sent: the API's rules (lib/schemas/event-type.ts)
// in the words of the page, at the API's own paths, so the API's issues land at the same fields.

/** The form as typed: numbers are still text, questions need only their labels here. */
export type EventTypeFields = {
  title: string;
  slug: string;
  durationMinutes: string;
  bufferBeforeMinutes: string;
  bufferAfterMinutes: string;
  /** "" = the same as the duration */
  slotIntervalMinutes: string;
  location: string;
  description: string;
  color: string;
  questions: { label: string; type: string; options: string }[];
};

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const COLOUR = /^#[0-9A-Fa-f]{6}$/;

/** A whole number as typed ("30", " 45 "), or NaN ("", "4.5", "1e3", "-"). */
export function wholeNumber(text: string): number {
  return /^\s*\d{1,6}\s*$/.test(text) ? Number(text) : Number.NaN;
}

const within = (text: string, min: number, max: number) => {
  const n = wholeNumber(text);
  return n >= min && n <= max;
};

/** Words for what is wrong with a slug, or undefined. */
function slugProblem(slug: string): string | undefined {
  if (slug.trim() === "") return "Enter the last part of the booking link, e.g. intro-call.";
  if (slug.length > 64) return "Use at most 64 characters.";
  if (SLUG.test(slug)) return undefined;
  if (/[A-Z]/.test(slug) && SLUG.test(slug.toLowerCase())) return "Use lower-case letters only.";
  if (/^-|-$/.test(slug)) return "Start and end with a letter or digit, not a hyphen.";
  if (/--/.test(slug)) return "Use single hyphens between words.";
  return "Use only lower-case letters, digits and hyphens, e.g. intro-call (no spaces or other signs).";
}

/** Every problem the page can see, by the API path of its field. */
export function checkEventType(f: EventTypeFields): FieldErrors {
  const problems: FieldErrors = {};
  if (f.title.trim() === "") problems.title = "Enter a title.";
  else if (f.title.length > 200) problems.title = "Use at most 200 characters.";
  const slug = slugProblem(f.slug);
  if (slug) problems.slug = slug;
  if (f.description.length > 5000) problems.description = "Use at most 5000 characters.";
  if (f.location.length > 500) problems.location = "Use at most 500 characters.";
  if (!COLOUR.test(f.color)) problems.color = "Choose a colour.";
  if (f.durationMinutes.trim() === "") problems.durationMinutes = "Enter how long it lasts, from 5 to 720 minutes.";
  else if (!within(f.durationMinutes, 5, 720)) problems.durationMinutes = "Enter whole minutes from 5 to 720.";
  if (f.slotIntervalMinutes.trim() !== "" && !within(f.slotIntervalMinutes, 5, 720)) {
    problems.slotIntervalMinutes = "Enter whole minutes from 5 to 720, or leave it empty.";
  }
  for (const key of ["bufferBeforeMinutes", "bufferAfterMinutes"] as const) {
    if (!within(f[key], 0, 240)) problems[key] = "Enter whole minutes from 0 to 240 (0 for none).";
  }
  f.questions.forEach((q, i) => {
    if (q.label.trim() === "") problems[`customQuestions.${i}.label`] = "Write the question, or remove it.";
    const choice = q.type === "single_choice" || q.type === "checkboxes";
    if (choice && q.options.split("\n").every((line) => line.trim() === "")) problems[`customQuestions.${i}.options`] = "Write at least one option, one a line.";
  });
  return problems;
}

const TOP_LEVEL = new Set(["title", "slug", "description", "location", "color", "durationMinutes", "slotIntervalMinutes", "bufferBeforeMinutes", "bufferAfterMinutes", "customQuestions"]);
/** The parts of a question the form shows a problem at (its id is made from its label, so at the label). */
const QUESTION_FIELDS: Record<string, string> = { label: "label", id: "label", type: "type", display: "display", options: "options" };

/**
 * The form field that shows an API issue at `path`, or undefined when no field shows it: such a
 * problem is listed above the form instead (see `unplacedWords`). A question editor that shows
 * problems of more parts of a question adds them to QUESTION_FIELDS.
 */
export function eventTypeFieldOf(path: string): string | undefined {
  if (TOP_LEVEL.has(path)) return path;
  const question = /^customQuestions\.(\d+)\.(\w+)(\.\d+)?$/.exec(path);
  const part = question && QUESTION_FIELDS[question[2]!];
  // An option's own problem keeps its number: the editor says "Option 3: …".
  if (!question || !part) return undefined;
  const option = part === "options" ? (question[3] ?? "") : "";
  return `customQuestions.${question[1]}.${part}${option}`;
}

/** An API problem no field shows, in words that say where it is ("Question 2: …"). */
export function unplacedWords(message: string, path: string): string {
  const question = /^customQuestions\.(\d+)/.exec(path);
  return question ? `Question ${Number(question[1]) + 1}: ${message}` : message;
}
