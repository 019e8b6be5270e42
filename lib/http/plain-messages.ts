import type { z } from "zod";

// zod 4's default messages are written for developers ("Too small: expected number to be >=5",
// "Invalid input: expected string, received undefined") and reach people: the dashboard shows an
// issue's message at its field. Every request is parsed with this map instead (parseWith), so an
// issue a schema does not word itself says the same thing in plain words. A schema's own message
// (`.regex(…, "Must be …")`) still wins: zod asks a per-parse map only when the schema has none.

type Issue = z.core.$ZodRawIssue;

const plural = (n: number | bigint, one: string, many = `${one}s`) => `${n} ${Number(n) === 1 ? one : many}`;

const KINDS: Record<string, string> = {
  number: "a number",
  int: "a whole number",
  string: "text",
  boolean: "true or false",
  array: "a list",
  object: "an object",
  date: "a date",
};

const FORMATS: Record<string, string> = {
  email: "Must be an email address",
  url: "Must be a web address such as https://example.com",
  uuid: "Must be a UUID",
  datetime: "Must be an ISO 8601 timestamp, e.g. 2027-03-15T13:00:00Z",
  date: "Must be a date written YYYY-MM-DD",
  time: "Must be a time written HH:mm",
};

function tooSmall(issue: Extract<Issue, { code: "too_small" }>): string {
  const { minimum: min, inclusive } = issue;
  if (issue.origin === "string") return Number(min) === 1 && inclusive ? "Must not be empty" : `Must be at least ${plural(min, "character")}`;
  if (issue.origin === "array" || issue.origin === "set") return Number(min) === 1 && inclusive ? "Must not be empty" : `Must have at least ${plural(min, "item")}`;
  return inclusive ? `Must be at least ${min}` : `Must be more than ${min}`;
}

function tooBig(issue: Extract<Issue, { code: "too_big" }>): string {
  const { maximum: max, inclusive } = issue;
  if (issue.origin === "string") return `Must be at most ${plural(max, "character")}`;
  if (issue.origin === "array" || issue.origin === "set") return `Must have at most ${plural(max, "item")}`;
  return inclusive ? `Must be at most ${max}` : `Must be less than ${max}`;
}

/** Plain words for a zod issue the schema did not word itself; undefined leaves zod's own. */
export function plainMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case "invalid_type": {
      if (issue.input === undefined) return "Required";
      const kind = KINDS[issue.expected];
      return kind ? `Must be ${kind}` : "Has the wrong type";
    }
    case "too_small":
      return tooSmall(issue);
    case "too_big":
      return tooBig(issue);
    case "invalid_format":
      return FORMATS[issue.format] ?? "Is not in the expected format";
    case "invalid_value":
      return `Must be one of: ${issue.values.map((v) => String(v)).join(", ")}`;
    case "not_multiple_of":
      return `Must be a multiple of ${issue.divisor}`;
    case "invalid_union":
      return "Is not in an accepted form";
    default:
      return undefined;
  }
}
