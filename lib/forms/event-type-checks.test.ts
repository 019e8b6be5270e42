import { describe, expect, it } from "vitest";
import { CreateEventTypeBody } from "@/lib/schemas/event-type";
import { checkEventType, eventTypeFieldOf, unplacedWords, wholeNumber, type EventTypeFields } from "./event-type-checks";

const valid: EventTypeFields = {
  title: "Intro call",
  slug: "intro-call",
  durationMinutes: "30",
  bufferBeforeMinutes: "0",
  bufferAfterMinutes: "10",
  slotIntervalMinutes: "",
  location: "",
  description: "",
  color: "#2563eb",
  questions: [{ label: "Company", type: "text", options: "" }],
};

/** What the API says about the same fields (numbers as the form sends them). */
function apiAccepts(f: EventTypeFields): boolean {
  const n = (t: string) => (t.trim() === "" ? Number.NaN : Number(t));
  return CreateEventTypeBody.safeParse({
    title: f.title,
    slug: f.slug,
    durationMinutes: n(f.durationMinutes),
    bufferBeforeMinutes: n(f.bufferBeforeMinutes),
    bufferAfterMinutes: n(f.bufferAfterMinutes),
    slotIntervalMinutes: f.slotIntervalMinutes === "" ? null : n(f.slotIntervalMinutes),
    location: f.location,
    description: f.description,
    color: f.color,
    customQuestions: f.questions.map((q, i) => ({
      id: `q${i}`,
      label: q.label,
      type: q.type,
      ...(q.options.trim() ? { options: q.options.split("\n").filter((line) => line.trim()) } : {}),
    })),
  }).success;
}

describe("checkEventType: the page's checks before sending", () => {
  it("accepts a valid form", () => {
    expect(checkEventType(valid)).toEqual({});
    expect(apiAccepts(valid)).toBe(true);
  });

  it("finds every problem at once, at the API's paths, in plain words", () => {
    const problems = checkEventType({
      ...valid,
      title: "  ",
      slug: "Intro Call!",
      durationMinutes: "2",
      bufferBeforeMinutes: "",
      bufferAfterMinutes: "300",
      slotIntervalMinutes: "7.5",
      questions: [
        { label: "Company", type: "text", options: "" },
        { label: " ", type: "text", options: "" },
        { label: "Tools", type: "checkboxes", options: " \n" },
      ],
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
  ])("says what is wrong with the link %j", (slug, message) => {
    expect(checkEventType({ ...valid, slug }).slug).toBe(message);
    expect(apiAccepts({ ...valid, slug })).toBe(false);
  });

  it("agrees with the API on the bounds of every number", () => {
    for (const [key, min, max] of [
      ["durationMinutes", 5, 720],
      ["bufferBeforeMinutes", 0, 240],
      ["bufferAfterMinutes", 0, 240],
      ["slotIntervalMinutes", 5, 720],
    ] as const) {
      for (const value of [min - 1, min, max, max + 1]) {
        const f = { ...valid, [key]: String(value) };
        const pageOk = checkEventType(f)[key] === undefined;
        expect(pageOk, `${key}=${value}`).toBe(value >= min && value <= max);
        expect(apiAccepts(f), `${key}=${value}`).toBe(pageOk);
      }
    }
    expect(checkEventType({ ...valid, durationMinutes: "" }).durationMinutes).toBe("Enter how long it lasts, from 5 to 720 minutes.");
  });

  it("reads only whole numbers", () => {
    expect(wholeNumber(" 45 ")).toBe(45);
    for (const text of ["", "4.5", "1e3", "-5", "abc"]) expect(wholeNumber(text)).toBeNaN();
  });
});

describe("eventTypeFieldOf: where an API issue is shown", () => {
  it("shows top-level fields at themselves and a question's id at its label", () => {
    expect(eventTypeFieldOf("durationMinutes")).toBe("durationMinutes");
    expect(eventTypeFieldOf("customQuestions.2.label")).toBe("customQuestions.2.label");
    expect(eventTypeFieldOf("customQuestions.2.id")).toBe("customQuestions.2.label");
    expect(eventTypeFieldOf("customQuestions")).toBe("customQuestions");
  });

  it("shows a question's type, display and options at the editor's fields, an option with its number", () => {
    expect(eventTypeFieldOf("customQuestions.1.type")).toBe("customQuestions.1.type");
    expect(eventTypeFieldOf("customQuestions.1.options")).toBe("customQuestions.1.options");
    expect(eventTypeFieldOf("customQuestions.1.options.3")).toBe("customQuestions.1.options.3");
    expect(eventTypeFieldOf("customQuestions.1.display")).toBe("customQuestions.1.display");
  });

  it("leaves what no field shows to the summary, saying which question", () => {
    expect(eventTypeFieldOf("customQuestions.1.required")).toBeUndefined();
    expect(eventTypeFieldOf("isActive")).toBeUndefined();
    expect(unplacedWords("Must be one of: text, phone", "customQuestions.1.type")).toBe("Question 2: Must be one of: text, phone");
    expect(unplacedWords("The request body is not valid JSON", "")).toBe("The request body is not valid JSON");
  });
});
