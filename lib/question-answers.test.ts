import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { CustomQuestion } from "@/db/schema";
import { PHONE_FORMAT_HINT, toE164 } from "@/lib/phone";
import { ANSWER_MAX_LENGTH, checkAnswer, checkAnswers, EMAIL_PATTERN, MAX_ANSWER_LENGTH, readableAnswer } from "./question-answers";

const rules = { phone: toE164, phoneMessage: PHONE_FORMAT_HINT };
const q = (type: CustomQuestion["type"], extra: Partial<CustomQuestion> = {}): CustomQuestion => ({ id: "q", label: "The question", required: false, type, ...extra });
const colours = q("checkboxes", { options: ["Red", "Green", "Blue, light"] });
const size = q("single_choice", { options: ["Small", "Large"], display: "radio" });

const ok = (value: string | undefined) => ({ ok: true, value });
const refused = (message: string | RegExp) => expect.objectContaining({ ok: false, message: typeof message === "string" ? message : expect.stringMatching(message) });

describe("checkAnswer", () => {
  it("required means a non-blank answer, for every type", () => {
    for (const type of ["text", "long_text", "email", "number", "phone"] as const) {
      expect(checkAnswer(q(type, { required: true }), "  ", rules)).toEqual(refused('"The question" needs an answer'));
      expect(checkAnswer(q(type, { required: true }), undefined, rules)).toEqual(refused('"The question" needs an answer'));
      expect(checkAnswer(q(type), " ", rules)).toEqual(ok(undefined));
    }
    expect(checkAnswer({ ...colours, required: true }, "\n", rules)).toEqual(refused('"The question" needs an answer'));
    expect(checkAnswer({ ...size, required: true }, "", rules)).toEqual(refused('"The question" needs an answer'));
  });

  it("keeps free text exactly as written, within its type's length", () => {
    expect(checkAnswer(q("text"), "  As typed  ", rules)).toEqual(ok("  As typed  "));
    expect(checkAnswer(q("text"), "x".repeat(2000), rules).ok).toBe(true);
    expect(checkAnswer(q("text"), "x".repeat(2001), rules)).toEqual(refused("At most 2000 characters"));
    expect(checkAnswer(q("long_text"), "line one\nline two".padEnd(5000, "."), rules).ok).toBe(true);
    expect(checkAnswer(q("long_text"), "x".repeat(5001), rules)).toEqual(refused("At most 5000 characters"));
  });

  it("takes an email address the way the guest's own address is taken (zod's pattern), trimmed", () => {
    expect(EMAIL_PATTERN.source).toBe(z.regexes.email.source);
    expect(checkAnswer(q("email"), " ada@example.com ", rules)).toEqual(ok("ada@example.com"));
    for (const bad of ["ada", "ada@", "ada@localhost", "@example.com", "ada @example.com", "a@b.c"]) {
      expect(checkAnswer(q("email"), bad, rules), bad).toEqual(refused("Must be an email address, like name@example.com"));
    }
  });

  it("takes a decimal number with a point or a comma, stored with a point", () => {
    for (const [given, stored] of [["42", "42"], [" -3.5 ", "-3.5"], ["3,5", "3.5"], [".5", ".5"], ["007", "007"], ["0", "0"]]) {
      expect(checkAnswer(q("number"), given, rules), given).toEqual(ok(stored));
    }
    for (const bad of ["abc", "1e3", "Infinity", "NaN", "1.2.3", "1 000", "+5", "5.", "--1", "0x10", "½"]) {
      expect(checkAnswer(q("number"), bad, rules), bad).toEqual(refused("Must be a number, like 42 or 3.5"));
    }
    // "1,000" is a thousand to some readers and one to others.
    expect(checkAnswer(q("number"), "1,000", rules)).toEqual(refused(/without thousands separators/));
    expect(checkAnswer(q("number"), "1".repeat(41), rules)).toEqual(refused("At most 40 characters"));
  });

  it("reads phone numbers with the reader it is given, to E.164", () => {
    expect(checkAnswer(q("phone"), "+49 (30) 1234-5678", rules)).toEqual(ok("+493012345678"));
    expect(checkAnswer(q("phone"), "030 1234567", rules)).toEqual(refused(PHONE_FORMAT_HINT));
    expect(checkAnswer(q("phone"), "+1 415 555 0100", { phone: () => undefined, phoneMessage: "Not for this country" })).toEqual(refused("Not for this country"));
  });

  it("takes exactly one of a single choice's options", () => {
    expect(checkAnswer(size, "Large", rules)).toEqual(ok("Large"));
    expect(checkAnswer(size, " Small ", rules)).toEqual(ok("Small"));
    for (const bad of ["large", "Medium", "Small\nLarge"]) expect(checkAnswer(size, bad, rules), bad).toEqual(refused("Must be one of the choices offered"));
  });

  it("takes checkboxes as options joined by newlines, each offered and none twice, stored in the question's order", () => {
    expect(checkAnswer(colours, "Blue, light\nRed", rules)).toEqual(ok("Red\nBlue, light"));
    expect(checkAnswer(colours, "Green\r\n", rules)).toEqual(ok("Green"));
    expect(checkAnswer(colours, "Red\nPurple", rules)).toEqual(refused('"Purple" is not one of the choices offered'));
    expect(checkAnswer(colours, "Red\nRed", rules)).toEqual(refused('"Red" is chosen more than once'));
    // A comma is part of an option, not a separator.
    expect(checkAnswer(colours, "Red, Green", rules)).toEqual(refused('"Red, Green" is not one of the choices offered'));
  });

  it("bounds a request's answers by the longest type (every option of a checkboxes question)", () => {
    expect(MAX_ANSWER_LENGTH).toBe(ANSWER_MAX_LENGTH.checkboxes);
    const options = Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(200, "o"));
    const all = q("checkboxes", { options });
    const answer = options.join("\n");
    expect(answer.length).toBeLessThanOrEqual(MAX_ANSWER_LENGTH);
    expect(checkAnswer(all, answer, rules)).toEqual(ok(answer));
  });
});

describe("checkAnswers", () => {
  const questions: CustomQuestion[] = [
    { id: "email", label: "Work email", required: true, type: "email" },
    { id: "size", label: "Team size", required: true, type: "number" },
    { id: "notes", label: "Notes", required: false, type: "long_text" },
    { ...colours, id: "colours", label: "Colours" },
  ];

  it("gives every issue at once, at customAnswers.<id>, unknown questions included", () => {
    const { issues } = checkAnswers(questions, { email: "nope", colours: "Pink", extra: "x" }, rules);
    expect(issues).toEqual([
      { path: "customAnswers.extra", message: "Not a question of this event type" },
      { path: "customAnswers.email", message: "Must be an email address, like name@example.com" },
      { path: "customAnswers.size", message: '"Team size" needs an answer' },
      { path: "customAnswers.colours", message: '"Pink" is not one of the choices offered' },
    ]);
  });

  it("answers as stored: normalised, without empty optional answers", () => {
    const result = checkAnswers(questions, { email: " a@example.com", size: "12,5", notes: "", colours: "Green\nRed" }, rules);
    expect(result).toEqual({ answers: { email: "a@example.com", size: "12.5", colours: "Red\nGreen" }, issues: [] });
  });

  it("does not take Object.prototype's members for questions or answers", () => {
    const proto = [{ id: "constructor", label: "Who", required: true, type: "text" as const }];
    expect(checkAnswers(proto, {}, rules).issues).toEqual([{ path: "customAnswers.constructor", message: '"Who" needs an answer' }]);
    expect(checkAnswers([], JSON.parse('{"__proto__":"x"}'), rules).issues).toEqual([{ path: "customAnswers.__proto__", message: "Not a question of this event type" }]);
  });
});

describe("readableAnswer", () => {
  it("lists checkbox answers, formats phone numbers, and shows anything else as stored", () => {
    expect(readableAnswer(colours, "Red\nBlue, light")).toEqual(["Red", "Blue, light"]);
    expect(readableAnswer(q("phone"), "+14155550100", (n) => `formatted ${n}`)).toEqual(["formatted +14155550100"]);
    expect(readableAnswer(q("long_text"), "a\nb")).toEqual(["a\nb"]);
    expect(readableAnswer(undefined, "kept")).toEqual(["kept"]);
  });
});

describe("checkAnswer's problem: what the guest page words in the guest's language", () => {
  it("names the reason, and the limit of a too-long answer", () => {
    const problem = (type: Parameters<typeof q>[0], answer: string, extra = {}) => {
      const check = checkAnswer(q(type, extra), answer, rules);
      return check.ok ? undefined : { problem: check.problem, max: check.max };
    };
    expect(problem("text", " ", { required: true })).toEqual({ problem: "required", max: undefined });
    expect(problem("text", "x".repeat(2001))).toEqual({ problem: "too_long", max: 2000 });
    expect(problem("email", "ada")).toEqual({ problem: "email", max: undefined });
    expect(problem("number", "abc")).toEqual({ problem: "number", max: undefined });
    expect(problem("number", "1,000")).toEqual({ problem: "number_thousands", max: undefined });
    expect(problem("phone", "030 1234567")).toEqual({ problem: "phone", max: undefined });
  });
});
