import type { CustomQuestion, QuestionType } from "@/db/schema";

// The rules of a guest's answer to each kind of custom question, in one place: the API applies
// them when a booking is made (create-booking.ts) and the guest's browser before it sends
// (booking-form.tsx), so both say the same thing in the same words. Nothing here may pull in
// server code or a large library: it ships in the booking page's bundle. Phone numbers are the
// one rule that needs data (libphonenumber's metadata), so the caller hands in its reader: the
// server its full metadata (lib/phone.ts), the browser the small one it loads lazily.
//
// Every answer is a string (docs/product.md: customAnswers values are strings). A checkboxes
// answer is the chosen options joined by a newline, in the question's order; an option cannot
// hold a newline, so the encoding is unambiguous.

export const MAX_OPTIONS = 50;
export const MAX_OPTION_LENGTH = 200;
export const CHECKBOX_SEPARATOR = "\n";

export const CHOICE_TYPES: ReadonlySet<QuestionType> = new Set(["single_choice", "checkboxes"]);
export const isChoice = (type: QuestionType) => CHOICE_TYPES.has(type);

/** The longest answer each type takes, in UTF-16 code units (what String.length and zod count). */
export const ANSWER_MAX_LENGTH: Record<QuestionType, number> = {
  text: 2000,
  long_text: 5000,
  email: 254,
  number: 40,
  phone: 40,
  single_choice: MAX_OPTION_LENGTH,
  // Every option chosen, with a separator between each two.
  checkboxes: MAX_OPTIONS * (MAX_OPTION_LENGTH + 1),
};
/** The bound of any answer in a request body; each type's own is checked after. */
export const MAX_ANSWER_LENGTH = Math.max(...Object.values(ANSWER_MAX_LENGTH));

/**
 * zod 4's `z.email()` pattern (`z.regexes.email`), the one guest addresses are checked with;
 * copied so the browser need not load zod. A unit test keeps it equal to zod's.
 */
export const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

// A decimal number: an optional minus, digits, and one decimal separator. A comma is accepted
// for it (a phone's decimal keypad in Germany has no point) and stored as a point; with no
// thousands separators, "1,000" would read as one, so it is refused as ambiguous.
const NUMBER_PATTERN = /^-?(?:\d+(?:[.,]\d+)?|[.,]\d+)$/;
const THOUSANDS_LIKE = /^-?\d{1,3},\d{3}$/;

/** Reads a phone number: E.164 when it is a number that can be dialled, otherwise undefined. */
export type PhoneReader = (text: string) => string | undefined;

export type AnswerRules = {
  phone: PhoneReader;
  /** What a refused phone number is told (the server asks for + and the country code). */
  phoneMessage: string;
};

/** One answer checked: the value to store (undefined: no answer), or what is wrong in plain words. */
/** Why an answer was refused: the guest page words each reason in the guest's language. */
export type AnswerProblem = "required" | "too_long" | "email" | "number" | "number_thousands" | "phone" | "choice";

export type AnswerCheck = { ok: true; value: string | undefined } | { ok: false; message: string; problem: AnswerProblem; max?: number };

const fail = (problem: AnswerProblem, message: string, max?: number): AnswerCheck => ({ ok: false, message, problem, ...(max === undefined ? {} : { max }) });
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The options a checkboxes answer names, in the order given. */
export function chosenOptions(answer: string): string[] {
  return answer
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

export function checkAnswer(question: CustomQuestion, given: string | undefined, rules: AnswerRules): AnswerCheck {
  const answer = given ?? "";
  const trimmed = answer.trim();
  if (trimmed === "") return question.required ? fail("required", `"${question.label}" needs an answer`) : { ok: true, value: undefined };
  const max = ANSWER_MAX_LENGTH[question.type];
  if (answer.length > max) return fail("too_long", `At most ${plural(max, "character", "characters")}`, max);
  const options = question.options ?? [];

  switch (question.type) {
    case "text":
    case "long_text":
      // Free text is kept exactly as the guest wrote it.
      return { ok: true, value: answer };
    case "email":
      return EMAIL_PATTERN.test(trimmed) ? { ok: true, value: trimmed } : fail("email", "Must be an email address, like name@example.com");
    case "number":
      if (THOUSANDS_LIKE.test(trimmed)) return fail("number_thousands", "Write the number without thousands separators, like 1000 (not 1,000)");
      return NUMBER_PATTERN.test(trimmed) ? { ok: true, value: trimmed.replace(",", ".") } : fail("number", "Must be a number, like 42 or 3.5");
    case "phone": {
      const number = rules.phone(trimmed);
      return number ? { ok: true, value: number } : fail("phone", rules.phoneMessage);
    }
    case "single_choice":
      return options.includes(trimmed) ? { ok: true, value: trimmed } : fail("choice", "Must be one of the choices offered");
    case "checkboxes": {
      const chosen = chosenOptions(answer);
      const unknown = chosen.find((c) => !options.includes(c));
      if (unknown !== undefined) return fail("choice", `"${unknown}" is not one of the choices offered`);
      const twice = chosen.find((c, i) => chosen.indexOf(c) !== i);
      if (twice !== undefined) return fail("choice", `"${twice}" is chosen more than once`);
      return { ok: true, value: options.filter((o) => chosen.includes(o)).join(CHECKBOX_SEPARATOR) };
    }
  }
}

export type AnswerIssue = { path: string; message: string };

/**
 * All of a guest's answers checked at once: the answers as stored (emails trimmed, numbers with a
 * point, phone numbers in E.164, checkboxes in the question's order, no empty optional answers)
 * and every issue at `customAnswers.<id>`, unknown questions included.
 */
export function checkAnswers(
  questions: readonly CustomQuestion[],
  answers: Readonly<Record<string, string>>,
  rules: AnswerRules,
): { answers: Record<string, string>; issues: AnswerIssue[] } {
  const issues: AnswerIssue[] = [];
  const known = new Set(questions.map((q) => q.id));
  // Own properties only: an answer map is data, and a question id like "constructor" must not
  // find Object.prototype's member.
  const given = new Map(Object.entries(answers));
  for (const id of given.keys()) {
    if (!known.has(id)) issues.push({ path: `customAnswers.${id}`, message: "Not a question of this event type" });
  }
  const stored: [string, string][] = [];
  for (const q of questions) {
    const check = checkAnswer(q, given.get(q.id), rules);
    if (!check.ok) issues.push({ path: `customAnswers.${q.id}`, message: check.message });
    else if (check.value !== undefined) stored.push([q.id, check.value]);
  }
  return { answers: Object.fromEntries(stored), issues };
}

/**
 * A stored answer as people read it, one line per item: a checkboxes answer is its options,
 * a phone number is written internationally ("+1 415 555 0100") when `formatPhone` is given.
 * An answer given before its question changed type is shown as it was stored.
 */
export function readableAnswer(question: Pick<CustomQuestion, "type"> | undefined, stored: string, formatPhone?: (e164: string) => string): string[] {
  if (question?.type === "checkboxes") return chosenOptions(stored);
  if (question?.type === "phone" && formatPhone) return [formatPhone(stored)];
  return [stored];
}
