import type { z } from "zod";
import type { ValidationIssue } from "@/lib/errors";

/** A schema's refusal as the API reports it: one issue per problem, at its dotted path (the error body's `details.issues`). */
export function zodIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.flatMap((issue) => {
    const at = issue.path.map(String);
    // One issue per unknown field, at that field's own path, so a client can point at it.
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ path: [...at, key].join("."), message: "Unknown field" }));
    }
    return [{ path: at.join("."), message: issue.message }];
  });
}
