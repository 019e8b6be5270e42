import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { AvailabilityBody } from "@/lib/schemas/availability";
import { CreateEventTypeBody } from "@/lib/schemas/event-type";
import { parseWith } from "./parse";

/** The issues the API would answer for `value`, as a map from path to message. */
function issuesOf(schema: z.ZodType, value: unknown): Record<string, string> {
  try {
    parseWith(schema, value, "request body");
  } catch (error) {
    const issues = (error as AppError).details.issues as { path: string; message: string }[];
    return Object.fromEntries(issues.map((i) => [i.path, i.message]));
  }
  throw new Error("expected a validation error");
}

// What a person reads at a field: no "Too small: expected number to be >=5", no "Invalid input".
const RAW = /Too small|Too big|Invalid input|expected .* received|>=|<=|Invalid option|Invalid string/;

describe("the API's validation messages are plain words", () => {
  it("words every event-type field a host can get wrong", () => {
    const issues = issuesOf(CreateEventTypeBody, {
      slug: "Intro Call",
      title: "   ",
      durationMinutes: 2,
      bufferBeforeMinutes: -5,
      bufferAfterMinutes: 12.5,
      slotIntervalMinutes: 1000,
      location: "x".repeat(501),
      color: "blue",
      customQuestions: [{ id: "q", label: "" }],
    });
    expect(issues).toEqual({
      slug: "Must be lower-case letters and digits separated by single hyphens",
      title: "Must not be empty",
      durationMinutes: "Must be a whole number of minutes from 5 to 720",
      bufferBeforeMinutes: "Must be a whole number of minutes from 0 to 240",
      bufferAfterMinutes: "Must be a whole number of minutes from 0 to 240",
      slotIntervalMinutes: "Must be a whole number of minutes from 5 to 720",
      location: "Must be at most 500 characters",
      color: "Must be a colour #RRGGBB",
      "customQuestions.0.label": "Must not be empty",
    });
  });

  it("says Required for a missing field, and names the kind for a wrong one", () => {
    expect(issuesOf(CreateEventTypeBody, { durationMinutes: "30", slug: null })).toEqual({
      slug: "Must be text",
      title: "Required",
      durationMinutes: "Must be a whole number of minutes from 5 to 720",
    });
    expect(issuesOf(CreateEventTypeBody, {})).toEqual({ slug: "Required", title: "Required", durationMinutes: "Required" });
  });

  it("words the availability's limits and a null the browser sent for an empty number box", () => {
    expect(issuesOf(AvailabilityBody, { minNoticeHours: null, maxAdvanceDays: 0, weeklyRules: [], dateOverrides: [] })).toEqual({
      minNoticeHours: "Must be a whole number of hours from 0 to 8760",
      maxAdvanceDays: "Must be a whole number of days from 1 to 730",
    });
  });

  it("gives plain words for zod's generic checks, and keeps a schema's own message", () => {
    const schema = z.strictObject({
      name: z.string().min(3).max(5),
      count: z.number().gt(0).lt(10),
      tags: z.array(z.string()).min(1).max(2),
      email: z.email(),
      kind: z.enum(["a", "b"]),
      flag: z.boolean(),
      code: z.string().regex(/^x+$/),
      own: z.string().regex(/^y$/, "Must be y"),
    });
    const issues = issuesOf(schema, { name: "ab", count: 0, tags: [], email: "nope", kind: "c", flag: "yes", code: "?", own: "z" });
    expect(issues).toEqual({
      name: "Must be at least 3 characters",
      count: "Must be more than 0",
      tags: "Must not be empty",
      email: "Must be an email address",
      kind: "Must be one of: a, b",
      flag: "Must be true or false",
      code: "Is not in the expected format",
      own: "Must be y",
    });
    const big = issuesOf(schema, { name: "abcdefg", count: 10, tags: ["a", "b", "c"], email: "a@b.co", kind: "a", flag: true, code: "x", own: "y" });
    expect(big).toEqual({ name: "Must be at most 5 characters", count: "Must be less than 10", tags: "Must have at most 2 items" });
    for (const message of [...Object.values(issues), ...Object.values(big)]) expect(message).not.toMatch(RAW);
  });
});
