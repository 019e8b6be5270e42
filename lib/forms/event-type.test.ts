import { describe, expect, it } from "vitest";
import { CreateEventTypeBody } from "@/lib/schemas/event-type";
import {
  eventTypeFieldOf,
  eventTypeServerWords,
  newEventTypeRules,
  newQuestion,
  reminderDraft,
  toEventTypeBody,
  unplacedWords,
  wholeNumber,
  type EventTypeValues,
  type QuestionDraft,
} from "./event-type";
import { checkForm } from "./resolver";

const question = (q: Partial<QuestionDraft>): QuestionDraft => ({ ...newQuestion(), ...q });

const valid: EventTypeValues = {
  title: "Intro call",
  slug: "intro-call",
  durationMinutes: "30",
  bufferBeforeMinutes: "0",
  bufferAfterMinutes: "10",
  slotIntervalMinutes: "",
  location: "",
  description: "",
  color: "#2563eb",
  customQuestions: [question({ label: "Company" })],
  requiresConfirmation: false,
  limits: { perDay: "", perWeek: "" },
  scheduleId: "",
  minNoticeHours: "",
  maxAdvanceDays: "",
  reminders: [],
};

/** What the page says before sending: the API's schema over the body the form would send. */
const check = (f: EventTypeValues) => checkForm(newEventTypeRules, f);

/** What the API says about the same body. */
const apiAccepts = (f: EventTypeValues): boolean => CreateEventTypeBody.safeParse(toEventTypeBody(f)).success;

describe("the event-type form's check before sending (the API's schema, the page's words)", () => {
  it("accepts a valid form", async () => {
    expect(await check(valid)).toEqual({});
    expect(apiAccepts(valid)).toBe(true);
  });

  it("finds every problem at once, at the API's paths, in plain words", async () => {
    const problems = await check({
      ...valid,
      title: "  ",
      slug: "Intro Call!",
      durationMinutes: "2",
      bufferBeforeMinutes: "",
      bufferAfterMinutes: "300",
      slotIntervalMinutes: "7.5",
      customQuestions: [question({ label: "Company" }), question({ label: " " }), question({ label: "Tools", type: "checkboxes", options: " \n" })],
    });
    expect(problems).toEqual({
      title: "Enter a title.",
      slug: "Use only lower-case letters, digits and hyphens, e.g. intro-call (no spaces or other signs).",
      durationMinutes: "Enter whole minutes from 5 to 720.",
      bufferBeforeMinutes: "Enter whole minutes from 0 to 240 (0 for none).",
      bufferAfterMinutes: "Enter whole minutes from 0 to 240 (0 for none).",
      slotIntervalMinutes: "Enter whole minutes from 5 to 720, or leave it empty.",
      "customQuestions.1.label": "Write the question, or remove it.",
      "customQuestions.2.options": "Write at least one option, one a line.",
    });
  });

  it.each([
    ["", "Enter the last part of the booking link, e.g. intro-call."],
    ["Intro-call", "Use lower-case letters only."],
    ["-intro", "Start and end with a letter or digit, not a hyphen."],
    ["intro--call", "Use single hyphens between words."],
    ["intro call", "Use only lower-case letters, digits and hyphens, e.g. intro-call (no spaces or other signs)."],
    ["a".repeat(65), "Use at most 64 characters."],
  ])("says what is wrong with the link %j", async (slug, message) => {
    expect((await check({ ...valid, slug })).slug).toBe(message);
    expect(apiAccepts({ ...valid, slug })).toBe(false);
  });

  it("agrees with the API on the bounds of every number", async () => {
    for (const [key, min, max] of [
      ["durationMinutes", 5, 720],
      ["bufferBeforeMinutes", 0, 240],
      ["bufferAfterMinutes", 0, 240],
      ["slotIntervalMinutes", 5, 720],
    ] as const) {
      for (const value of [min - 1, min, max, max + 1]) {
        const f = { ...valid, [key]: String(value) };
        const pageOk = (await check(f))[key] === undefined;
        expect(pageOk, `${key}=${value}`).toBe(value >= min && value <= max);
        expect(apiAccepts(f), `${key}=${value}`).toBe(pageOk);
      }
    }
    expect((await check({ ...valid, durationMinutes: "" })).durationMinutes).toBe("Enter how long it lasts, from 5 to 720 minutes.");
  });

  it("names an option's problem at the options box, with its number", async () => {
    const problems = await check({ ...valid, customQuestions: [question({ label: "Plan", type: "single_choice", options: "Basic\nPro\n\nBasic" })] });
    expect(problems).toEqual({ "customQuestions.0.options": 'Option 3: "Basic" is already an option' });
  });

  it("reads only whole numbers", () => {
    expect(wholeNumber(" 45 ")).toBe(45);
    for (const text of ["", "4.5", "1e3", "-5", "abc"]) expect(wholeNumber(text)).toBeNaN();
  });
});

describe("eventTypeFieldOf: where an API issue is shown", () => {
  it("shows top-level fields at themselves, a question's id at its label, the list's own problem at its heading", () => {
    expect(eventTypeFieldOf("durationMinutes")).toBe("durationMinutes");
    expect(eventTypeFieldOf("customQuestions.2.label")).toBe("customQuestions.2.label");
    expect(eventTypeFieldOf("customQuestions.2.id")).toBe("customQuestions.2.label");
    expect(eventTypeFieldOf("customQuestions")).toBe("customQuestions.root");
  });

  it("shows a question's type, display and options at the editor's fields, an option with its number", () => {
    expect(eventTypeFieldOf("customQuestions.1.type")).toBe("customQuestions.1.type");
    expect(eventTypeFieldOf("customQuestions.1.options")).toBe("customQuestions.1.options");
    expect(eventTypeFieldOf("customQuestions.1.options.3")).toBe("customQuestions.1.options");
    expect(eventTypeServerWords('"Basic" is already an option', { path: "customQuestions.1.options.3" })).toBe('Option 4: "Basic" is already an option');
    expect(eventTypeFieldOf("customQuestions.1.display")).toBe("customQuestions.1.display");
  });

  it("leaves what no field shows to the summary, saying which question", () => {
    expect(eventTypeFieldOf("customQuestions.1.required")).toBeUndefined();
    expect(eventTypeFieldOf("isActive")).toBeUndefined();
    expect(unplacedWords("Must be one of: text, phone", "customQuestions.1.type")).toBe("Question 2: Must be one of: text, phone");
    expect(unplacedWords("The request body is not valid JSON", "")).toBe("The request body is not valid JSON");
  });

  it("sends #22's fields: confirmation, limits (empty: none), notice and window (empty: the host's), reminders in minutes", () => {
    const body = toEventTypeBody({
      ...valid,
      requiresConfirmation: true,
      limits: { perDay: "3", perWeek: "" },
      minNoticeHours: "",
      maxAdvanceDays: " 30 ",
      reminders: [
        { amount: "1", unit: "days", to: "guest" },
        { amount: "2", unit: "hours", to: "both" },
        { amount: "15", unit: "minutes", to: "host" },
      ],
    });
    expect(body).toMatchObject({
      requiresConfirmation: true,
      limits: { perDay: 3 },
      minNoticeHours: null,
      maxAdvanceDays: 30,
      reminders: [
        { minutesBefore: 1440, to: "guest" },
        { minutesBefore: 120, to: "both" },
        { minutesBefore: 15, to: "host" },
      ],
    });
    expect(body.limits).toEqual({ perDay: 3 });
    expect(reminderDraft({ minutesBefore: 2880, to: "both" })).toEqual({ amount: "2", unit: "days", to: "both" });
    expect(reminderDraft({ minutesBefore: 90, to: "guest" })).toEqual({ amount: "90", unit: "minutes", to: "guest" });
    expect(reminderDraft({ minutesBefore: 180, to: "host" })).toEqual({ amount: "3", unit: "hours", to: "host" });
  });

  it("says #22's problems at their fields: limits, notice, window, a reminder's amount", async () => {
    const found = await check({
      ...valid,
      limits: { perDay: "0", perWeek: "abc" },
      minNoticeHours: "9999",
      maxAdvanceDays: "0",
      reminders: [
        { amount: "8", unit: "days", to: "guest" },
        { amount: "", unit: "minutes", to: "host" },
        { amount: "4", unit: "minutes", to: "both" },
      ],
    });
    expect(found).toEqual({
      "limits.perDay": "Enter a whole number from 1 to 100, or leave it empty for no limit.",
      "limits.perWeek": "Enter a whole number from 1 to 100, or leave it empty for no limit.",
      minNoticeHours: "Enter whole hours from 0 to 8760, or leave it empty for the host's own.",
      maxAdvanceDays: "Enter whole days from 1 to 730, or leave it empty for the host's own.",
      "reminders.0.amount": "Choose a time from 5 minutes to 7 days before the start.",
      "reminders.1.amount": "Choose a time from 5 minutes to 7 days before the start.",
      "reminders.2.amount": "Choose a time from 5 minutes to 7 days before the start.",
    });
    const six = Array.from({ length: 6 }, () => ({ amount: "1", unit: "hours" as const, to: "guest" as const }));
    expect(await check({ ...valid, reminders: six })).toEqual({ "reminders.root": "Keep at most 5 reminders." });
    expect(eventTypeFieldOf("reminders.3.to")).toBe("reminders.3.to");
    expect(unplacedWords("Too many", "reminders.2")).toBe("Reminder 3: Too many");
  });
});
