import type { EventTypeDto, EventTypeInputOf, EventTypeOwner, SchedulingType, TeamEventTypeDto } from "@/lib/browser/api-client/event-types";
import { amountInput, parseAmount } from "@/lib/payments/money";
import { slugify } from "@/lib/slugify";

// The event-type form's model, one for the host's own event types and a team's (a personal event
// type is a team of one): its values as typed and the body they become for the owner. The fields
// carry the API's own paths (customQuestions.0.label), so the API's issues land at the same
// fields; where each is shown and in which words is event-type-issues.ts, the rules the form is
// checked by event-type-rules.ts.

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
  /** The schedule whose hours it offers; "" = the host's default schedule. A team's is always each host's default. */
  scheduleId: string;
  /** "" = the host's own (their availability's setting). */
  minNoticeHours: string;
  maxAdvanceDays: string;
  reminders: ReminderDraft[];
  /** How bookings go to the hosts, "" until chosen (a team's; a host's own has one host, the same either way). */
  schedulingType: SchedulingType | "";
  /** The members who host it (a team's; a host's own is hosted by its owner). */
  hostIds: string[];
  /** Group session (decisions §19): up to `max` guests per start; off sends null. */
  seats: { on: boolean; max: string; showRemaining: boolean };
  /** Recurring: a guest may book up to `maxOccurrences` sessions `everyWeeks` apart; off sends null. */
  recurrence: { on: boolean; everyWeeks: string; maxOccurrences: string };
  /**
   * Which calendars block it (decisions §21; the host's own only): every calendar marked "check
   * for conflicts" (sends null), or the ones chosen (their ids).
   */
  conflictCalendars: { all: boolean; ids: string[] };
  /**
   * Paid sessions (decisions §20): off sends null. The amount is as the host types it in
   * `locale` ("49,90" in German), sent in minor units; `locale` is not a field, only how to read it.
   */
  price: { on: boolean; amount: string; currency: string; refundableUntilHours: string; locale: string };
};

/** How the editor reads and writes amounts, and the currency a new price starts in. */
export type MoneySettings = { locale: string; currency: string };
export const DEFAULT_MONEY: MoneySettings = { locale: "en", currency: "eur" };

/** What a type can have (decisions §19): round robin has no seats (every guest of a start needs the same host). */
export const canHaveSeats = (owner: EventTypeOwner["kind"], schedulingType: SchedulingType | "") => owner === "me" || schedulingType !== "round_robin";
/** Collective does not recur: a series needs one host. */
export const canRecur = (owner: EventTypeOwner["kind"], schedulingType: SchedulingType | "") => owner === "me" || schedulingType !== "collective";
export const NO_SEATS_REASON = "Round-robin event types cannot be group sessions: every guest of a start needs the same host.";
export const NO_RECURRENCE_REASON = "Collective event types cannot recur: a series is booked with one host (choose round robin).";

export const MAX_QUESTIONS = 20;

export const newQuestion = (): QuestionDraft => ({ savedId: null, label: "", required: false, type: "text", options: "", display: "radio" });

const NEW: Omit<EventTypeValues, "hostIds"> = {
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
  schedulingType: "round_robin",
  seats: { on: false, max: "10", showRemaining: true },
  recurrence: { on: false, everyWeeks: "1", maxOccurrences: "4" },
  conflictCalendars: { all: true, ids: [] },
  price: { on: false, amount: "", currency: DEFAULT_MONEY.currency, refundableUntilHours: "24", locale: DEFAULT_MONEY.locale },
};

/** The Price section's values: a stored price in the host's locale, or none yet in their usual currency. */
function priceValues(price: EventTypeDto["price"] | undefined, money: MoneySettings): EventTypeValues["price"] {
  if (!price) return { ...NEW.price, currency: money.currency, locale: money.locale };
  return { on: true, amount: amountInput(price.amount, price.currency, money.locale), currency: price.currency, refundableUntilHours: String(price.refundableUntilHours), locale: money.locale };
}

/**
 * The form of a stored event type, or of a new one. `possibleHosts` are who may host (a team's
 * active members; none for the host's own): a new one is hosted by all of them, round robin to
 * begin with; a stored one keeps its hosts who still may (a member who left is not offered again).
 */
export function eventTypeValues(eventType: EventTypeDto | TeamEventTypeDto | undefined, possibleHosts: string[] = [], money: MoneySettings = DEFAULT_MONEY): EventTypeValues {
  if (!eventType) return { ...NEW, hostIds: possibleHosts, price: priceValues(null, money) };
  const hosting = "hostIds" in eventType ? eventType : undefined;
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
    schedulingType: hosting?.schedulingType ?? NEW.schedulingType,
    hostIds: (hosting?.hostIds ?? []).filter((id) => possibleHosts.includes(id)),
    seats: eventType.seats ? { on: true, max: String(eventType.seats.max), showRemaining: eventType.seats.showRemaining } : NEW.seats,
    recurrence: eventType.recurrence
      ? { on: true, everyWeeks: String(eventType.recurrence.everyWeeks), maxOccurrences: String(eventType.recurrence.maxOccurrences) }
      : NEW.recurrence,
    conflictCalendars: eventType.conflictCalendars ? { all: false, ids: eventType.conflictCalendars } : NEW.conflictCalendars,
    price: priceValues(eventType.price, money),
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

type PersonalInput = EventTypeInputOf<{ kind: "me" }>;
type TeamInput = EventTypeInputOf<{ kind: "team"; teamId: string }>;

/**
 * The questions as the API takes them. Question ids are the keys of a guest's answers: an
 * existing question keeps its id (renaming the label does not orphan earlier answers); a new one
 * gets one made from its label.
 */
export function toQuestionInputs(drafts: QuestionDraft[]): NonNullable<PersonalInput["customQuestions"]> {
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

/** The fields every event type has, as the API takes them. */
function commonBody(v: EventTypeValues): PersonalInput {
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
    price: v.price.on
      ? { amount: parseAmount(v.price.amount, v.price.currency, v.price.locale) ?? Number.NaN, currency: v.price.currency, refundableUntilHours: wholeNumber(v.price.refundableUntilHours) }
      : null,
  };
}

/**
 * What an owner's event type takes besides: the host's own, which calendars block it; a team's,
 * how bookings are shared and who hosts, and no schedule of its own (each host's default decides, decisions §15). "" is sent as it is, for
 * the API's schema to refuse (the check before sending says it first).
 */
const OWN_FIELDS: Record<EventTypeOwner["kind"], (v: EventTypeValues) => Partial<TeamInput> | Pick<PersonalInput, "conflictCalendars">> = {
  // A team's takes each host's own calendars (decisions §21): nothing is sent for it.
  me: (v) => ({ conflictCalendars: v.conflictCalendars.all ? null : v.conflictCalendars.ids }),
  team: (v) => ({ scheduleId: null, schedulingType: v.schedulingType as SchedulingType, hostIds: v.hostIds }),
};

/**
 * Seats and recurrence as the API takes them: null when off, or when the type cannot have them
 * (the section is hidden then, and a setting left on from before the type changed is not sent).
 */
function seatsAndRecurrence(v: EventTypeValues, owner: EventTypeOwner["kind"]): Pick<PersonalInput, "seats" | "recurrence"> {
  const type = owner === "team" ? v.schedulingType : "";
  return {
    seats: v.seats.on && canHaveSeats(owner, type) ? { max: wholeNumber(v.seats.max), showRemaining: v.seats.showRemaining } : null,
    recurrence:
      v.recurrence.on && canRecur(owner, type) ? { everyWeeks: wholeNumber(v.recurrence.everyWeeks), maxOccurrences: wholeNumber(v.recurrence.maxOccurrences) } : null,
  };
}

/** The body the form sends for the owner (POST or PATCH: every field). */
export function toEventTypeBody(v: EventTypeValues, owner: EventTypeOwner["kind"]): EventTypeInputOf<EventTypeOwner> {
  return { ...commonBody(v), ...seatsAndRecurrence(v, owner), ...OWN_FIELDS[owner](v) };
}
