import { amountInput, formatMoney, isCurrency } from "@/lib/payments/money";
import { MAX_REMINDERS, type EventTypeValues } from "./event-type";
import type { FoundIssue } from "./field-errors";

// Where a problem with the event-type form is shown, and in which words: the API's issues by their
// paths, placed at the fields that carry them (lib/forms/field-errors.ts), and the page's words
// for what the browser's own check finds (the API's schema, event-type-rules.ts).

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
  "schedulingType",
  "seats.max",
  "seats.showRemaining",
  "recurrence.everyWeeks",
  "recurrence.maxOccurrences",
  "price.amount",
  "price.currency",
  "price.refundableUntilHours",
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
  // A problem of one host (listed twice, not a member) is shown at the list.
  if (path === "hostIds" || /^hostIds\.\d+$/.test(path)) return "hostIds";
  if (path === "customQuestions") return "customQuestions.root";
  if (path === "reminders") return "reminders.root";
  const reminder = REMINDER_PATH.exec(path);
  if (reminder) return `reminders.${reminder[1]}.${reminder[2] === "to" ? "to" : "amount"}`;
  if (path === "limits") return "limits.perDay";
  // A problem of the whole setting (round robin cannot have seats) is shown at its switch.
  // Payments not set up (400 at price) is said at the Price section's switch.
  if (path === "seats" || path === "recurrence" || path === "price") return `${path}.on`;
  // A calendar not (or no longer) the host's: shown at the section's choice.
  if (path === "conflictCalendars" || /^conflictCalendars\.\d+$/.test(path)) return "conflictCalendars.all";
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
  "seats.max": "Enter a whole number of guests from 2 to 1000.",
  "recurrence.everyWeeks": "Choose every 1 to 4 weeks.",
  "recurrence.maxOccurrences": "Enter a whole number of sessions from 2 to 24.",
  "price.refundableUntilHours": "Enter whole hours from 0 to 720 (0: a guest can cancel for a refund until the start).",
};

/** Words for an amount the schema refused, with examples in the host's own way of writing them. */
function amountWords(v: EventTypeValues["price"]): string {
  const currency = isCurrency(v.currency) ? v.currency : "eur";
  const least = formatMoney(50, currency, v.locale);
  if (v.amount.trim() === "") return `Enter what a guest pays, at least ${least}.`;
  const example = amountInput(4990, currency, v.locale);
  return `Enter an amount such as ${example}, at least ${least}.`;
}
const TOO_LONG: Record<string, string> = { title: "Use at most 200 characters.", description: "Use at most 5000 characters.", location: "Use at most 500 characters." };

/** The page's words for a problem the schema found in the form (undefined keeps the schema's own). */
export function eventTypeWords(issue: FoundIssue, v: EventTypeValues): string | undefined {
  const { path, code } = issue;
  if (path === "title" && code === "too_small") return "Enter a title.";
  if (code === "too_big" && TOO_LONG[path]) return TOO_LONG[path];
  if (path === "slug") return slugWords(v.slug);
  if (path === "color") return "Choose a colour.";
  if (path === "schedulingType") return "Choose how bookings are shared: round robin or collective.";
  if (path.startsWith("hostIds")) return v.hostIds.length === 0 ? "Choose at least one host." : "Choose hosts among the team's active members.";
  if (path === "durationMinutes" && v.durationMinutes.trim() === "") return "Enter how long it lasts, from 5 to 720 minutes.";
  if (NUMBER_WORDS[path]) return NUMBER_WORDS[path];
  if (path === "price.amount") return amountWords(v.price);
  if (path === "price.currency") return "Choose a currency.";
  const reminder = REMINDER_PATH.exec(path);
  if (reminder?.[2] === "minutesBefore") return "Choose a time from 5 minutes to 7 days before the start.";
  if (path === "reminders" && code === "too_big") return `Keep at most ${MAX_REMINDERS} reminders.`;
  const question = QUESTION_PATH.exec(path);
  if (question?.[2] === "label" && code === "too_small") return "Write the question, or remove it.";
  if (question?.[2] === "options" && question[3] === undefined && code === "too_small") return "Write at least one option, one a line.";
  return eventTypeServerWords(issue.message, issue);
}
